// SPDX-License-Identifier: Apache-2.0
// bench-http.mjs - execute_code over Streamable HTTP (`pyward serve --http`)
// next to stdio, in the same run: p50/p99 latency at concurrency 1, 2 and
// 8 and the throughput, HTTP's figures as ratios of stdio's.
// With HAProxy's configuration (contrib/haproxy/haproxy.cfg) and haproxy
// installed, also through HAProxy in front of three instances.
// Usage: node tests/bench/bench-http.mjs [PYWARD [HAPROXY_CFG]]
// (BENCH_N requests per level, 300 by default; keep-alive connections,
// one per worker.)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from './mcp-raw.mjs';

const PYWARD = process.argv[2] ?? process.env.PYWARD ?? './pyward';
const CFG = process.argv[3] ?? process.env.HAPROXY_CFG;
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

// A free loopback port for HAProxy's frontend.
function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// HAProxy (CFG) in front of three instances; resolves to its address and
// the processes to stop, once a call through it succeeds; null without
// haproxy or a configuration.
async function startHaproxy() {
  if (!CFG || spawnSync('haproxy', ['-v']).status !== 0) return null;
  const three = await Promise.all([1, 2, 3].map(startHttp));
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pyward-bench-'));
  const env = {
    ...process.env, PYWARD_BIND: `127.0.0.1:${port}`, PYWARD_1: three[0].host,
    PYWARD_2: three[1].host, PYWARD_3: three[2].host, HAPROXY_STATS_SOCKET: join(dir, 'stats.sock'),
  };
  const hap = spawn('haproxy', ['-db', '-f', CFG], { stdio: 'ignore', env });
  const host = `127.0.0.1:${port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' });
  for (let tries = 0; ; tries++) {
    const r = await post(host, agent, body).catch(() => null);
    if (r?.result) break;
    if (tries > 300) throw new Error('HAProxy did not serve within 30 s');
    await new Promise((res) => setTimeout(res, 100));
  }
  agent.destroy();
  const stop = () => {
    hap.kill('SIGTERM');
    three.forEach((t) => t.proc.kill('SIGTERM'));
    rmSync(dir, { recursive: true, force: true });
  };
  return { host, stop };
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
const hap = await startHaproxy();
const agents = LEVELS.map(() => new http.Agent({ keepAlive: true, maxSockets: 8 }));
const hapAgents = LEVELS.map(() => new http.Agent({ keepAlive: true, maxSockets: 8 }));
let id = 0;
const args = { name: 'execute_code', arguments: { code: CODE } };
const viaStdio = () => stdio.request('tools/call', args);
const viaHttp = (agent, to = host) => () =>
  post(to, agent, JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: args }));
const merge = (a, b) => ({ lat: [...a.lat, ...b.lat].sort((x, y) => x - y), rps: (a.rps + b.rps) / 2 });

console.log(`execute_code ${JSON.stringify(CODE)}: HTTP (keep-alive) next to stdio, ${N} calls per level` +
  (hap ? '; and through HAProxy in front of three instances' : ' (HAProxy: not measured)'));
console.log('conc  transport   p50 ms    p99 ms    runs/s');
for (const [i, conc] of LEVELS.entries()) {
  const ways = [['stdio', viaStdio], ['http', viaHttp(agents[i])]];
  if (hap) ways.push(['haproxy3', viaHttp(hapAgents[i], hap.host)]);
  for (const [, call] of ways) await level(call, 20, conc); // warm-up
  // Interleaved halves, so that a drift of the host hits every way alike.
  const got = {};
  for (let half = 0; half < 2; half++) {
    for (const [name, call] of ways) {
      const r = await level(call, N / 2, conc);
      got[name] = got[name] ? merge(got[name], r) : r;
    }
  }
  for (const [name] of ways) {
    const r = got[name];
    console.log(`${String(conc).padStart(4)}  ${name.padEnd(9)} ${pct(r.lat, 50).toFixed(3).padStart(8)} ` +
      `${pct(r.lat, 99).toFixed(3).padStart(9)} ${r.rps.toFixed(0).padStart(9)}`);
  }
  const s = got.stdio;
  for (const [name] of ways.slice(1)) {
    const h = got[name];
    console.log(`      ${name}/stdio: p50 x${(pct(h.lat, 50) / pct(s.lat, 50)).toFixed(2)}, ` +
      `p99 x${(pct(h.lat, 99) / pct(s.lat, 99)).toFixed(2)}, throughput x${(h.rps / s.rps).toFixed(2)}`);
  }
}
stdio.close();
agents.forEach((a) => a.destroy());
hapAgents.forEach((a) => a.destroy());
hap?.stop();
proc.kill('SIGTERM');
