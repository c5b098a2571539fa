// SPDX-License-Identifier: Apache-2.0
// mcp-raw.mjs - a raw JSON-RPC client of `pyward serve` for the
// benchmarks: one message per line, replies matched to their ids, several
// requests in flight.
import { spawn } from 'node:child_process';

export class Server {
  constructor(pyward, args = []) {
    this.proc = spawn(pyward, ['serve', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.pending = new Map();
    this.id = 0;
    let tail = '';
    this.proc.stdout.on('data', (c) => {
      tail += c.toString();
      let nl;
      while ((nl = tail.indexOf('\n')) >= 0) {
        const msg = JSON.parse(tail.slice(0, nl));
        tail = tail.slice(nl + 1);
        const p = this.pending.get(msg.id);
        if (p) { this.pending.delete(msg.id); p(msg); }
      }
    });
  }

  request(method, params) {
    const id = ++this.id;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  close() { this.proc.stdin.end(); }
}
