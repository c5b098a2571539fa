// SPDX-License-Identifier: Apache-2.0
// failover.mjs - three `pyward serve --http` instances behind HAProxy
// (contrib/haproxy/haproxy.cfg) on loopback, a bounded load of
// execute_code calls through it with the v2 SDK client, one instance
// killed (SIGKILL) while calls are in flight on it.  Every call must be
// answered with its own output: a call in flight on the killed instance
// fails with a clear error and succeeds when the client retries it; none
// is lost or hangs.  TAP on stdout, the figures as comments.
// Usage: node failover.mjs PYWARD HAPROXY_CFG WORKDIR
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  freePort, sleep, startHaproxy, startPyward, stats, stopAll, tap, waitFor, waitUp,
} from './cluster.mjs';

const [PYWARD, CFG, WORK] = process.argv.slice(2);
const CALLS = Number(process.env.FAILOVER_CALLS ?? 150);
const WORKERS = Number(process.env.FAILOVER_WORKERS ?? 6);
const CALL_LIMIT_MS = 60000; // a call not settled by then has hung
const RETRIES = 3;
const RETRY_PAUSE_MS = 300;
const TOKEN = `pyward-failover-${process.pid}`;
const REVISION = '2026-07-28';
// A run long enough to be caught in flight, short enough for the load.
const code = (i) => `import time\ntime.sleep(0.25)\nprint("call-${i}", ${i} * 7)\n`;
const expected = (i) => `call-${i} ${i * 7}\n`;

const t = tap();
const { point, note } = t;
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

function client(url) {
  const c = new Client({ name: 'pyward-failover', version: '0.0.0' },
    { versionNegotiation: { mode: { pin: REVISION } } });
  const tr = new StreamableHTTPClientTransport(url,
    { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  return c.connect(tr).then(() => c);
}

// One attempt of call I, bounded: { ok, out, ms } or { error, ms }.
async function attempt(c, i) {
  const t0 = performance.now();
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('HUNG: no answer in time')), CALL_LIMIT_MS);
  });
  try {
    const r = await Promise.race([
      c.callTool({ name: 'execute_code', arguments: { code: code(i) } }), limit]);
    const out = r.structuredContent?.stdout;
    return { ok: !r.isError && out === expected(i), out, r, ms: performance.now() - t0 };
  } catch (e) {
    const cause = e?.cause ? ` (${e.cause.code ?? ''} ${e.cause.message ?? e.cause})` : '';
    return { error: String(e?.message ?? e) + cause, ms: performance.now() - t0, start: t0, end: performance.now() };
  } finally {
    clearTimeout(timer);
  }
}

async function main() {
  const tokens = join(WORK, 'tokens');
  writeFileSync(tokens, `${TOKEN}\n`, { mode: 0o600 });
  const sock = join(WORK, 'haproxy.sock');
  const pyw = await Promise.all([1, 2, 3].map((k) => startPyward(PYWARD, tokens,
    ['--max-concurrency', '2', '--instance-id', `p${k}`])));
  const port = await freePort();
  const hap = startHaproxy(CFG, {
    PYWARD_BIND: `127.0.0.1:${port}`, PYWARD_1: pyw[0].addr, PYWARD_2: pyw[1].addr,
    PYWARD_3: pyw[2].addr, HAPROXY_STATS_SOCKET: sock,
  });
  await waitUp(sock);
  point(true, 'three pyward serve --http instances UP behind HAProxy (/readyz)');

  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const results = new Array(CALLS);
  const firstErrors = [];
  let next = 0;
  let retried = 0;
  let killedAt = null;
  let killedInFlight = null;
  let diedAt = null; // its exit seen: until then its sockets take calls
  const t0 = performance.now();

  // The victim: pyward2, killed once a third of the calls are done and
  // HAProxy has calls in flight on it.
  const killer = (async () => {
    await waitFor('a third of the calls', async () => results.filter(Boolean).length >= CALLS / 3,
      CALL_LIMIT_MS * 2);
    await waitFor('calls in flight on pyward2', async () =>
      Number((await stats(sock)).pyward2.scur) > 0, CALL_LIMIT_MS);
    killedInFlight = Number((await stats(sock)).pyward2.scur);
    const died = new Promise((resolve) => pyw[1].proc.once('exit', resolve));
    pyw[1].proc.kill('SIGKILL');
    killedAt = performance.now();
    await died;
    diedAt = performance.now();
  })();

  async function worker() {
    const c = await client(url);
    while (next < CALLS) {
      const i = next++;
      let a = await attempt(c, i);
      const attempts = [a];
      if (!a.ok) {
        firstErrors.push({ i, a });
      }
      // What an MCP client does on an error: try again, a few times, after
      // a pause (a retry sent before HAProxy's checks took the dead
      // instance out may meet it again).
      for (let tries = 0; !a.ok && tries < RETRIES; tries++) {
        retried += 1;
        await sleep(RETRY_PAUSE_MS);
        a = await attempt(c, i);
        attempts.push(a);
      }
      results[i] = { ...a, attempts };
    }
    await c.close();
  }
  await Promise.all(Array.from({ length: WORKERS }, worker));
  const wall = performance.now() - t0;
  await killer;

  const answered = results.filter((r) => r?.ok).length;
  point(answered === CALLS, `every call answered with its own output (${answered}/${CALLS})`,
    results.map((r, i) => (r?.ok ? null : `call ${i}: ${JSON.stringify(r?.error ?? r?.out)}`))
      .filter(Boolean).join('\n'));
  const hung = results.flatMap((r) => r.attempts).filter((a) => a.error?.startsWith('HUNG'));
  point(hung.length === 0, 'no call hung', `${hung.length} attempts hung`);
  point(killedAt !== null && killedInFlight > 0,
    `pyward2 killed with ${killedInFlight} calls in flight on it`);
  // Calls in flight on the killed instance fail, clearly and at once: an
  // error naming the cut, not a wrong result or a wait.  HAProxy answers
  // 502 on a client's first request; on a kept-alive connection (the SDK
  // keeps them) it closes the connection instead, as after a keep-alive
  // race, and the client's fetch fails with "other side closed".
  const clear = firstErrors.every(({ a }) => a.error && a.ms < 10000 &&
    /\b50[234]\b|other side closed|socket hang up|ECONNRESET|terminated/.test(a.error));
  point(firstErrors.length >= 1 && clear,
    `the calls cut by the kill failed clearly (${firstErrors.length}: ` +
      `${[...new Set(firstErrors.map(({ a }) => a.error ?? 'wrong output'))].join('; ')})`);
  // In flight when the instance was killed: the attempt had started
  // before the instance was gone (the kernel still queues connections on
  // its listening socket until its exit, and a dying sanitized build
  // takes a while) and had not ended when the kill was sent.  (HAProxy's
  // count, read just before the kill, misses a call it sends there in
  // between, so it only goes to the log.)
  const cutByKill = ({ a }) => a.error && a.start <= diedAt && a.end >= killedAt;
  point(killedAt !== null && firstErrors.every(cutByKill),
    `no call failed but those in flight when the instance was killed (${firstErrors.length} ` +
      `failed; HAProxy counted ${killedInFlight} on it just before the kill)`,
    firstErrors.map(({ i, a }) => `call ${i}: ${a.error ?? a.out} ` +
      `(${a.start?.toFixed(0)}-${a.end?.toFixed(0)} ms, kill at ${killedAt?.toFixed(0)} ms, ` +
      `exit seen at ${diedAt?.toFixed(0)} ms)`).join('\n'));
  point(firstErrors.every(({ i }) => results[i].ok), 'each failed call succeeded when retried');

  const s = await stats(sock);
  point(s.pyward2.status.startsWith('DOWN'), `HAProxy marked the killed instance ${s.pyward2.status}`);
  const served = ['pyward1', 'pyward2', 'pyward3'].map((k) => Number(s[k].stot));
  const latencies = results.map((r) => r.ms).sort((x, y) => x - y);
  const retries = Number(s.BACKEND?.wretr ?? 0) + ['pyward1', 'pyward2', 'pyward3']
    .reduce((acc, k) => acc + Number(s[k].wretr || 0), 0);
  const redisp = ['pyward1', 'pyward2', 'pyward3'].reduce((acc, k) => acc + Number(s[k].wredis || 0), 0);
  note(`${CALLS} execute_code calls, ${WORKERS} clients, 3 instances (--max-concurrency 2 each)`);
  note(`wall ${(wall / 1000).toFixed(2)} s, ${(CALLS / (wall / 1000)).toFixed(1)} calls/s; ` +
    `latency p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms ` +
    '(a call runs 250 ms of sleep)');
  note(`killed pyward2 at ${((killedAt - t0) / 1000).toFixed(2)} s with ${killedInFlight} in flight ` +
    `(its exit seen ${(diedAt - killedAt).toFixed(0)} ms later); ` +
    `${firstErrors.length} calls failed and were retried by the client (${retried} retries), all answered`);
  note(`HAProxy: sessions per instance ${served.join('/')}, ${retries} retries and ${redisp} redispatches ` +
    `of its own (refused connections to the dead instance), pyward2 ${s.pyward2.status}`);
  writeFileSync(join(WORK, 'haproxy.log'), hap.log());
  for (const { i, a } of firstErrors) {
    note(`call ${i}: started ${(killedAt - a.start).toFixed(0)} ms before the kill, failed ` +
      `${(a.end - killedAt).toFixed(0)} ms after it: ${a.error}`);
  }
  // The survivors drain on SIGTERM and exit 0; the killed one's zygote
  // and spares went with it.
  const codes = await Promise.all([pyw[0], pyw[2]].map(({ proc }) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running after 40 s'), 40000);
    proc.on('exit', (code, sig) => { clearTimeout(timer); resolve(sig ?? code); });
    proc.kill('SIGTERM');
  })));
  point(codes.every((c) => c === 0), `the surviving instances exit 0 on SIGTERM (${codes.join(', ')})`);
  if (t.failures > 0) note(`HAProxy's log:\n${hap.log().slice(-3000)}`);
  t.plan();
}

main()
  .catch((e) => {
    point(false, 'the failover run completed', e?.stack ?? e);
    t.plan();
  })
  .finally(stopAll);
