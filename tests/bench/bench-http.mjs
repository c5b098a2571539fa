// SPDX-License-Identifier: Apache-2.0
// bench-http.mjs - execute_code over Streamable HTTP (`pyward serve --http`)
// next to stdio, in the same run: p50/p99 latency at concurrency 1, 2 and
// 8 and the throughput, HTTP's figures as ratios of stdio's.
// Usage: node tests/bench/bench-http.mjs [PYWARD]   (BENCH_N requests per
// level, 300 by default; keep-alive connections, one per worker.)
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Server } from './mcp-raw.mjs';

const PYWARD = process.argv[2] ?? process.env.PYWARD ?? './pyward';
const N = Number(process.env.BENCH_N ?? 300);
const LEVELS = [1, 2, 8];
const CODE = "print('hi')";

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

function startHttp() {
  const proc = spawn(PYWARD, ['serve', '--http', '127.0.0.1:0'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /serving MCP on http:\/\/([^/]+)\/mcp/.exec(err);
      if (m) {
        proc.stderr.removeAllListeners('data');
        proc.stderr.resume(); // the access log is not read
        resolve({ proc, host: m[1] });
      }
    });
    proc.on('exit', (c) => reject(new Error(`pyward exited ${c}: ${err}`)));
  });
}

// One POST of BODY on AGENT's keep-alive connections; resolves to the
// parsed answer.
function post(host, agent, body) {
  const [hostname, port] = [host.slice(0, host.lastIndexOf(':')), host.slice(host.lastIndexOf(':') + 1)];
  return new Promise((resolve, reject) => {
    const req = http.request({
      hostname, port, path: '/mcp', method: 'POST', agent,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(parts).toString()));
        } catch (e) {
          reject(new Error(`status ${res.statusCode}: ${e.message}`));
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

// N calls of CALL(worker) with CONC workers: sorted latencies (ms) and
// runs per second.
async function level(call, n, conc) {
  const lat = [];
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all([...Array(conc)].map(async (_, w) => {
    while (next++ < n) {
      const t = process.hrtime.bigint();
      const r = await call(w);
      lat.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (r.error || r.result?.structuredContent?.stdout !== 'hi\n') {
        throw new Error(JSON.stringify(r).slice(0, 300));
      }
    }
  }));
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  return { lat: lat.sort((a, b) => a - b), rps: n / secs };
}

const stdio = new Server(PYWARD);
await stdio.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } });
const { proc, host } = await startHttp();
const agents = LEVELS.map(() => new http.Agent({ keepAlive: true, maxSockets: 8 }));
let id = 0;
const args = { name: 'execute_code', arguments: { code: CODE } };
const viaStdio = () => stdio.request('tools/call', args);
const viaHttp = (agent) => () =>
  post(host, agent, JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: args }));

console.log(`execute_code ${JSON.stringify(CODE)}: HTTP (keep-alive) next to stdio, ${N} calls per level`);
console.log('conc  transport   p50 ms    p99 ms    runs/s');
for (const [i, conc] of LEVELS.entries()) {
  await level(viaStdio, 20, conc); // warm-up
  await level(viaHttp(agents[i]), 20, conc);
  // Interleaved halves, so that a drift of the host hits both alike.
  const s1 = await level(viaStdio, N / 2, conc);
  const h1 = await level(viaHttp(agents[i]), N / 2, conc);
  const s2 = await level(viaStdio, N / 2, conc);
  const h2 = await level(viaHttp(agents[i]), N / 2, conc);
  const s = { lat: [...s1.lat, ...s2.lat].sort((a, b) => a - b), rps: (s1.rps + s2.rps) / 2 };
  const h = { lat: [...h1.lat, ...h2.lat].sort((a, b) => a - b), rps: (h1.rps + h2.rps) / 2 };
  for (const [name, r] of [['stdio', s], ['http', h]]) {
    console.log(`${String(conc).padStart(4)}  ${name.padEnd(9)} ${pct(r.lat, 50).toFixed(3).padStart(8)} ` +
      `${pct(r.lat, 99).toFixed(3).padStart(9)} ${r.rps.toFixed(0).padStart(9)}`);
  }
  console.log(`      http/stdio: p50 x${(pct(h.lat, 50) / pct(s.lat, 50)).toFixed(2)}, ` +
    `p99 x${(pct(h.lat, 99) / pct(s.lat, 99)).toFixed(2)}, throughput x${(h.rps / s.rps).toFixed(2)}`);
}
stdio.close();
agents.forEach((a) => a.destroy());
proc.kill('SIGTERM');
