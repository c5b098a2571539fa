// SPDX-License-Identifier: Apache-2.0
// session.mjs - talk raw JSON-RPC lines to `pyward serve` (no SDK).
//
// Every stdout line is kept and later checked to be a JSON-RPC message;
// replies are matched to requests by id, notifications collected apart.
import { spawn } from 'node:child_process';

export const PYWARD = process.env.PYWARD ?? './pyward';

export class Session {
  constructor(args = [], env = {}) {
    this.proc = spawn(PYWARD, ['serve', ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.lines = [];      // every stdout line, raw
    this.messages = [];   // parsed, not yet taken
    this.notes = [];      // notifications seen
    this.stderr = '';
    this.waiters = [];
    this.exited = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => {
        this.dead = true;
        resolve({ code, signal });
        setImmediate(() => this.wake());
      });
    });
    let tail = '';
    this.proc.stdout.on('data', (chunk) => {
      tail += chunk.toString('utf8');
      let nl;
      while ((nl = tail.indexOf('\n')) >= 0) {
        this.onLine(tail.slice(0, nl));
        tail = tail.slice(nl + 1);
      }
    });
    this.proc.stdout.on('end', () => {
      if (tail !== '') this.onLine(tail);
    });
    this.proc.stderr.on('data', (c) => { this.stderr += c.toString(); });
    this.proc.stdin.on('error', () => {});
    this.nextId = 1000;
  }

  onLine(line) {
    this.lines.push(line);
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      msg = { unparsable: line };
    }
    if (!Array.isArray(msg) && msg.method !== undefined && msg.id === undefined) {
      this.notes.push(msg);
    } else {
      this.messages.push({ msg, raw: line });
    }
    this.wake();
  }

  wake() {
    for (const w of [...this.waiters]) w();
  }

  // Write one raw line (string or Buffer); a newline is added.
  write(raw) {
    this.proc.stdin.write(raw);
    this.proc.stdin.write('\n');
  }

  send(obj) {
    this.write(JSON.stringify(obj));
  }

  // Next message (reply or batch) in arrival order, or null on timeout.
  next(timeoutMs = 10000) {
    return new Promise((resolve) => {
      const check = () => {
        if (this.messages.length > 0) {
          done(this.messages.shift());
        } else if (this.dead) {
          done(null);
        }
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      const done = (v) => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve(v);
      };
      this.waiters.push(check);
      check();
    });
  }

  // Send a request and wait for its reply (matched by id).
  async request(method, params, timeoutMs = 10000) {
    const id = this.nextId++;
    const msg = { jsonrpc: '2.0', id, method };
    if (params !== undefined) msg.params = params;
    this.send(msg);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = await this.next(Math.max(1, deadline - Date.now()));
      if (got === null) return null;
      if (got.msg.id === id) return got.msg;
      this.stray = (this.stray ?? []).concat([got]);
    }
  }

  async initialize(version = '2025-06-18') {
    const r = await this.request('initialize', {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: 'pyward-tests', version: '0' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r;
  }

  // Close stdin and wait for the exit (or kill after TIMEOUTMS).
  async close(timeoutMs = 5000) {
    this.proc.stdin.end();
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    const r = await this.exited;
    clearTimeout(timer);
    return r;
  }
}

// True if LINE is one JSON-RPC 2.0 message (or a batch of them).
export function isJsonRpcLine(line) {
  let v;
  try {
    v = JSON.parse(line);
  } catch {
    return false;
  }
  const one = (m) => m !== null && typeof m === 'object' && !Array.isArray(m) &&
    m.jsonrpc === '2.0' &&
    ((typeof m.method === 'string' && !('id' in m)) ||
     ('id' in m && (('result' in m) !== ('error' in m))));
  return Array.isArray(v) ? v.length > 0 && v.every(one) : one(v);
}

// Partial deep match: every key of WANT must match in GOT; functions are
// predicates.  Returns null or a description of the first mismatch.
export function mismatch(got, want, path = '$') {
  if (typeof want === 'function') {
    return want(got) ? null : `${path}: predicate failed on ${JSON.stringify(got)?.slice(0, 200)}`;
  }
  if (want === null || typeof want !== 'object') {
    return Object.is(got, want) ? null : `${path}: got ${JSON.stringify(got)?.slice(0, 200)}, want ${JSON.stringify(want)}`;
  }
  if (got === null || typeof got !== 'object') {
    return `${path}: got ${JSON.stringify(got)?.slice(0, 200)}, want an object`;
  }
  for (const k of Object.keys(want)) {
    const m = mismatch(got[k], want[k], `${path}.${k}`);
    if (m) return m;
  }
  return null;
}
