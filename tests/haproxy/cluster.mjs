// SPDX-License-Identifier: Apache-2.0
// cluster.mjs - what the HAProxy tests share: `pyward serve --http`
// instances and HAProxy (contrib/haproxy/haproxy.cfg) started on
// loopback and stopped at the end, HAProxy's admin socket, and TAP.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import net from 'node:net';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// TAP on stdout: point(good, name, detail), note(text), plan(); the
// points are numbered from OFFSET + 1 (the plan counts from 1).
export function tap(offset = 0) {
  const t = { n: offset, failures: 0 };
  t.note = (text) => String(text).split('\n').forEach((l) => console.log(`# ${l}`));
  t.point = (good, name, detail) => {
    t.n += 1;
    if (!good) t.failures += 1;
    console.log(`${good ? 'ok' : 'not ok'} ${t.n} - ${name}`);
    if (!good && detail !== undefined) t.note(detail);
  };
  t.plan = () => console.log(`1..${t.n}`);
  return t;
}

const children = [];

// Every process started, also noted (its pid, a line) in the file
// CLUSTER_PIDS names when it is set: the driver's trap ends them if this
// script could not.
export function track(proc) {
  children.push(proc);
  if (process.env.CLUSTER_PIDS && proc.pid !== undefined) {
    appendFileSync(process.env.CLUSTER_PIDS, `${proc.pid}\n`);
  }
  return proc;
}

// The last bytes of an instance's stderr kept, for a failed point's
// details.
const LOG_TAIL = 16384;

// One `pyward serve --http HTTP` (127.0.0.1:0 unless given) with the
// token file TOKENS and ARGS; resolves to { proc, addr, tail } once it
// listens (tail(): the end of its stderr, its log and access log).
export function startPyward(pyward, tokens, args = [], http = '127.0.0.1:0') {
  const proc = track(spawn(pyward, ['serve', '--http', http, '--auth-token-file', tokens,
    ...args], { stdio: ['ignore', 'ignore', 'pipe'] }));
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pyward did not listen: ${err}`)), 30000);
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /serving MCP on http:\/\/([^/]+)\/mcp/.exec(err);
      if (m) {
        clearTimeout(timer);
        proc.stderr.removeAllListeners('data');
        proc.stderr.on('data', (more) => {
          err = (err + more).slice(-LOG_TAIL);
        });
        resolve({ proc, addr: m[1], tail: () => err });
      }
    });
    proc.on('exit', (c) => reject(new Error(`pyward exited ${c}: ${err}`)));
  });
}

// A free TCP port on HOST (loopback unless given; 0.0.0.0: free on every
// address).
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, host, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// HAProxy in the foreground on the configuration CFG, ENV added to the
// environment (PYWARD_BIND, PYWARD_1..3, HAPROXY_STATS_SOCKET).
export function startHaproxy(cfg, env) {
  const proc = track(spawn('haproxy', ['-db', '-f', cfg], {
    stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env },
  }));
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  return { proc, log: () => err };
}

// One command on HAProxy's admin socket; resolves to its answer.
export function admin(sock, command) {
  return new Promise((resolve, reject) => {
    const c = net.createConnection(sock);
    let out = '';
    c.on('connect', () => c.write(`${command}\n`));
    c.on('data', (d) => { out += d; });
    c.on('end', () => resolve(out));
    c.on('error', reject);
  });
}

// The backend's rows of `show stat`, by server name.
export async function stats(sock) {
  const text = await admin(sock, 'show stat');
  const lines = text.trim().split('\n');
  const head = lines[0].replace(/^# /, '').split(',');
  const rows = {};
  for (const line of lines.slice(1)) {
    const cols = line.split(',');
    const row = Object.fromEntries(head.map((h, k) => [h, cols[k]]));
    if (row.pxname === 'pyward') rows[row.svname] = row;
  }
  return rows;
}

export async function waitFor(what, test, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await test()) return true;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

// Until HAProxy sees the three instances UP.
export function waitUp(sock) {
  return waitFor('HAProxy to see three instances UP', async () => {
    try {
      const s = await stats(sock);
      return ['pyward1', 'pyward2', 'pyward3'].every((k) => s[k]?.status === 'UP');
    } catch {
      return false;
    }
  }, 30000);
}

// SIGTERM to whatever is still running; exit soon after.
export function stopAll() {
  for (const p of children) {
    if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
  }
  setTimeout(() => process.exit(0), 2000).unref();
}
