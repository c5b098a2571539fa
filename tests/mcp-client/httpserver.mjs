// SPDX-License-Identifier: Apache-2.0
// httpserver.mjs - start `pyward serve --http 127.0.0.1:0` for a test and
// learn its port from the line it prints on stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PYWARD = process.env.PYWARD ?? './pyward';

// A token file holding TOKENS; returns its path.
export function tokenFile(tokens) {
  const dir = mkdtempSync(join(tmpdir(), 'pyward-http-'));
  const path = join(dir, 'tokens');
  writeFileSync(path, tokens.join('\n') + '\n', { mode: 0o600 });
  return path;
}

// Resolves to { url, proc, stderr() } once the server listens.
export function startHttp(args = []) {
  const proc = spawn(PYWARD, ['serve', '--http', '127.0.0.1:0', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env } });
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${err}`)), 20000);
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /serving MCP on (http:\/\/[^ ]+\/mcp)/.exec(err);
      if (m && timer) {
        clearTimeout(timer);
        resolve({ url: new URL(m[1]), proc, stderr: () => err });
      }
    });
    proc.on('exit', (code) => reject(new Error(`pyward exited ${code}: ${err}`)));
  });
}

// Stop PROC with SIGTERM; resolves to its exit code.
export function stopHttp(proc) {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) {
      resolve(proc.exitCode);
      return;
    }
    proc.on('exit', (code) => resolve(code));
    proc.kill('SIGTERM');
  });
}
