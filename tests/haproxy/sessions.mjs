// SPDX-License-Identifier: Apache-2.0
// sessions.mjs - session routing through HAProxy (contrib/haproxy/
// haproxy.cfg): three `pyward serve --http` instances started with
// --instance-id p1, p2, p3 on loopback.  Sessions are made through HAProxy
// by the v2 SDK client (with tools/list cached, so it mirrors session_id
// into Mcp-Param-Session-Id, and without), the v1 SDK client and raw
// JSON-RPC; each session then gets x = 1, x += 1 several times and
// print(x) through HAProxy, and only the instance holding the session
// can give the right value (any other answers "unknown session").  Then:
// the header alone routes, a header that differs from the body is refused
// by pyward, a busy owner's 503 reaches the client instead of being
// retried elsewhere, and a dead owner's sessions are told "unknown
// session".  TAP on stdout; every wait is bounded.
// Usage: node sessions.mjs PYWARD HAPROXY_CFG WORKDIR  (TAP_OFFSET: the
// number of the first point minus one)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from
  '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from
  '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  freePort, sleep, startHaproxy, startPyward, stats, stopAll, tap, waitFor, waitUp,
} from './cluster.mjs';

const [PYWARD, CFG, WORK] = process.argv.slice(2);
const PER_KIND = Number(process.env.SESSIONS_PER_KIND ?? 3);
const INCS = Number(process.env.SESSIONS_INCS ?? 6); // x += 1 calls a session
const WORKERS = 2; // calls in flight at once (p1 takes one run and one queued)
const CALL_LIMIT_MS = 30000;
const RUN_LIMIT_MS = 150000; // the whole test
const TOKEN = `pyward-sessions-${process.pid}`;
const REVISION = '2026-07-28';
const HANDLE = /^ps-(p[123])-[0-9a-f]+$/;

const t = tap(Number(process.env.TAP_OFFSET ?? 0));
const { point, note } = t;
let hap = null;

function bounded(promise, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HUNG: ${what}`)), CALL_LIMIT_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// A fetch that notes, for each tools/call naming a session, the
// Mcp-Param-Session-Id header sent with it.
function recorder(log) {
  return (url, init) => {
    let body = null;
    try {
      body = JSON.parse(init?.body ?? 'null');
    } catch { /* not JSON: not ours to note */ }
    const sid = body?.params?.arguments?.session_id;
    if (body?.method === 'tools/call' && sid !== undefined) {
      log.push({ sid, header: new Headers(init?.headers).get('mcp-param-session-id') });
    }
    return fetch(url, init);
  };
}

const auth = () => ({ Authorization: `Bearer ${TOKEN}` });

async function v2Client(url, log, list) {
  const c = new Client2({ name: 'pyward-sessions', version: '0.0.0' },
    { versionNegotiation: { mode: { pin: REVISION } } });
  await c.connect(new Transport2(url, { requestInit: { headers: auth() }, fetch: recorder(log) }));
  if (list) await c.listTools();
  return c;
}

async function v1Client(url, log) {
  const c = new Client1({ name: 'pyward-sessions', version: '0.0.0' });
  await c.connect(new Transport1(url, { requestInit: { headers: auth() }, fetch: recorder(log) }));
  return c;
}

// A tools/call as plain JSON-RPC, no MCP-Protocol-Version, no Mcp-*
// header unless HEADERS has it; BODY replaces the JSON text when given.
let rawId = 0;
async function rawPost(url, name, args, headers = {}, body = undefined) {
  const text = body ?? JSON.stringify({ jsonrpc: '2.0', id: ++rawId, method: 'tools/call',
    params: { name, arguments: args } });
  const r = await fetch(url, {
    method: 'POST', body: text, signal: AbortSignal.timeout(CALL_LIMIT_MS),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
      ...auth(), ...headers },
  });
  const answer = await r.text();
  let json = null;
  try {
    json = JSON.parse(answer);
  } catch { /* an HAProxy page, or empty */ }
  return { status: r.status, retryAfter: r.headers.get('retry-after'), json, text: answer };
}

function rawClient(url, log) {
  return {
    async callTool({ name, arguments: args }) {
      if (args.session_id !== undefined) log.push({ sid: args.session_id, header: null });
      const r = await rawPost(url, name, args);
      if (r.status !== 200 || !r.json?.result) throw new Error(`HTTP ${r.status}: ${r.text.slice(0, 200)}`);
      return r.json.result;
    },
    close: async () => {},
  };
}

const textOf = (r) => (r?.content ?? []).map((c) => c.text ?? '').join(' ');
const stdoutOf = (r) => r?.structuredContent?.stdout;

async function exec(c, sid, code) {
  return bounded(c.callTool({ name: 'execute_code', arguments: { code, session_id: sid } }),
    `execute_code on ${sid}`);
}

// x = 1, x += 1 INCS times, print(x): the printed value, or the error.
async function chain(c, sid) {
  const calls = ['x = 1', ...Array(INCS).fill('x += 1'), 'print(x)'];
  let r;
  for (const code of calls) {
    r = await exec(c, sid, code);
    if (r.isError) return `error: ${textOf(r)}`;
  }
  return stdoutOf(r);
}

async function metric(addr, name) {
  const r = await fetch(`http://${addr}/metrics`, { headers: auth(), signal: AbortSignal.timeout(5000) });
  const m = new RegExp(`^${name} (\\d+)`, 'm').exec(await r.text());
  return m ? Number(m[1]) : -1;
}

async function main() {
  const tokens = join(WORK, 'tokens');
  writeFileSync(tokens, `${TOKEN}\n`, { mode: 0o600 });
  const sock = join(WORK, 'haproxy-sessions.sock');
  // p1 runs one program at a time with one waiting: a third is a 503.
  // One token owns every session, and leastconn may put them all on one
  // instance.
  const pyw = await Promise.all([1, 2, 3].map((k) => startPyward(PYWARD, tokens, [
    '--instance-id', `p${k}`, '--max-sessions-per-client', String(4 * PER_KIND + 4),
    ...(k === 1 ? ['--max-concurrency', '1', '--max-queued', '1'] : ['--max-concurrency', '2'])])));
  const addr = { p1: pyw[0].addr, p2: pyw[1].addr, p3: pyw[2].addr };
  const port = await freePort();
  hap = startHaproxy(CFG, {
    PYWARD_BIND: `127.0.0.1:${port}`, PYWARD_1: addr.p1, PYWARD_2: addr.p2, PYWARD_3: addr.p3,
    HAPROXY_STATS_SOCKET: sock,
  });
  await waitUp(sock);
  point(true, 'three instances (--instance-id p1, p2, p3) UP behind HAProxy');
  const url = new URL(`http://127.0.0.1:${port}/mcp`);

  const kinds = [
    { name: 'v2 client (tools/list cached)', make: (log) => v2Client(url, log, true), header: true },
    { name: 'v2 client (no tools/list)', make: (log) => v2Client(url, log, false), header: false },
    { name: 'v1 client', make: (log) => v1Client(url, log), header: false },
    { name: 'raw JSON-RPC', make: (log) => rawClient(url, log), header: false },
  ];
  const sessions = []; // { kind, sid, at }
  for (const k of kinds) {
    k.log = [];
    k.client = await k.make(k.log);
    const made = [];
    for (let i = 0; i < PER_KIND; i++) {
      const r = await bounded(k.client.callTool({ name: 'create_session', arguments: {} }),
        'create_session');
      made.push(r.structuredContent?.session_id ?? `error: ${textOf(r)}`);
    }
    const good = made.every((sid) => HANDLE.test(sid));
    point(good, `${k.name}: ${PER_KIND} sessions made through HAProxy ` +
      `(on ${made.map((sid) => HANDLE.exec(sid)?.[1]).join(', ')})`, made.join('\n'));
    for (const sid of made) sessions.push({ kind: k, sid, at: HANDLE.exec(sid)?.[1] });
  }
  const where = ['p1', 'p2', 'p3'].map((p) => sessions.filter((s) => s.at === p).length);
  point(where.every((c) => c > 0), `the sessions spread over the three instances (${where.join('/')})`);

  // Every session's chain, WORKERS at a time, interleaved.
  const want = `${1 + INCS}\n`;
  let next = 0;
  const worker = async () => {
    while (next < sessions.length) {
      const s = sessions[next++];
      try {
        s.got = await chain(s.kind.client, s.sid);
      } catch (e) {
        s.got = `error: ${e?.message ?? e}`;
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  // A failed chain's details end with the end of each instance's log.
  const logs = () => pyw.map((p, i) => `--- p${i + 1}'s stderr, its end:\n${p.tail()}`);
  for (const k of kinds) {
    const mine = sessions.filter((s) => s.kind === k);
    const good = mine.every((s) => s.got === want);
    point(good,
      `${k.name}: each of its sessions' ${INCS + 2} calls reached the instance holding it ` +
      `(x = ${1 + INCS} in ${mine.filter((s) => s.got === want).length}/${mine.length})`,
      [...mine.map((s) => `${s.sid}: ${JSON.stringify(s.got)}`), ...(good ? [] : logs())]
        .join('\n'));
    const sent = k.log.filter((e) => e.header !== null);
    if (k.header) {
      point(k.log.length > 0 && k.log.every((e) => e.header === e.sid),
        `${k.name}: Mcp-Param-Session-Id sent with each of its ${k.log.length} session calls`,
        k.log.filter((e) => e.header !== e.sid).map((e) => JSON.stringify(e)).join('\n'));
    } else {
      point(k.log.length > 0 && sent.length === 0,
        `${k.name}: no Mcp-Param-Session-Id sent (${k.log.length} calls routed on the body)`,
        sent.map((e) => JSON.stringify(e)).join('\n'));
    }
  }

  // The header alone: a body whose key is written session\u005fid (the
  // same JSON) escapes HAProxy's body rule.
  const byAt = (p) => sessions.filter((s) => s.at === p && s.got === want);
  const hidden = ['p1', 'p2', 'p3'].flatMap((p) => byAt(p).slice(0, 2));
  const viaHeader = [];
  for (const s of hidden) {
    const body = `{"jsonrpc":"2.0","id":${++rawId},"method":"tools/call","params":` +
      `{"name":"execute_code","arguments":{"code":"print(x)","session\\u005fid":"${s.sid}"}}}`;
    const r = await rawPost(url, null, null, { 'Mcp-Param-Session-Id': s.sid }, body);
    viaHeader.push({ s, ok: r.status === 200 && stdoutOf(r.json?.result) === want, r });
  }
  point(hidden.length >= 3 && viaHeader.every((v) => v.ok),
    `the header alone routes: ${viaHeader.filter((v) => v.ok).length}/${hidden.length} calls ` +
    'whose body hides session_id from HAProxy reached the instance holding it',
    viaHeader.filter((v) => !v.ok).map((v) => `${v.s.sid}: ${v.r.status} ${v.r.text.slice(0, 200)}`)
      .join('\n'));

  // fork_session is routed like the session's other calls, and the copy
  // lives on the same instance (its handle names it).
  const forked = [];
  for (const k of kinds) {
    const s = sessions.find((x) => x.kind === k && x.got === want);
    const r = await bounded(k.client.callTool({ name: 'fork_session', arguments: { session_id: s?.sid } }),
      'fork_session');
    const copy = r.structuredContent?.session_id;
    const got = copy ? await exec(k.client, copy, 'print(x)') : r;
    forked.push({ k, s, copy, ok: HANDLE.exec(copy ?? '')?.[1] === s?.at && stdoutOf(got) === want,
      text: copy ? JSON.stringify(stdoutOf(got)) : textOf(r) });
    if (copy) await k.client.callTool({ name: 'close_session', arguments: { session_id: copy } });
  }
  point(forked.every((f) => f.ok),
    `fork_session through HAProxy, each kind of client: the copy is on the session's instance ` +
    `and answers with its state (${forked.filter((f) => f.ok).length}/${forked.length})`,
    forked.filter((f) => !f.ok).map((f) => `${f.k.name} ${f.s?.sid}: ${f.copy} ${f.text}`).join('\n'));

  // Without the routing the values above could not be: another instance
  // does not know the handle.
  const s1 = byAt('p1')[0];
  const s2 = byAt('p2')[0];
  const elsewhere = await rawPost(`http://${addr.p2}/mcp`, 'execute_code',
    { code: 'print(x)', session_id: s1?.sid });
  point(elsewhere.status === 200 && elsewhere.json?.result?.isError &&
    /unknown session/.test(textOf(elsewhere.json.result)),
  'a p1 handle sent straight to p2 is answered "unknown session"', elsewhere.text.slice(0, 300));

  // A header naming one session over a body naming another: HAProxy
  // routes on the header, pyward refuses (400, -32020); nothing runs.
  const mism = await rawPost(url, 'execute_code', { code: 'x += 100', session_id: s2?.sid },
    { 'Mcp-Param-Session-Id': s1?.sid });
  const after = await exec(kinds[3].client, s2?.sid, 'print(x)');
  point(mism.status === 400 && mism.json?.error?.code === -32020 && stdoutOf(after) === want,
    'through HAProxy, an Mcp-Param-Session-Id naming another session than the body is ' +
    'refused by pyward with 400 and -32020, and nothing ran',
    `${mism.status} ${mism.text.slice(0, 200)}; after: ${JSON.stringify(stdoutOf(after))}`);

  // p1 busy (one run, one waiting): its session's call gets the 503 and
  // its Retry-After, not a retry on an instance that does not know it.
  // One sleeper, running, then another, waiting (sent together, both
  // could meet the queue before the first leaves it); the one waiting
  // need not sleep: it runs once the first has ended.
  const slept = [];
  const sleepers = [];
  let full = [];
  for (const [what, ready] of [['a run on p1', (f) => f[0] >= 1],
    ['a run waiting on p1', (f) => f[0] >= 1 && f[1] >= 1]]) {
    sleepers.push(rawPost(`http://${addr.p1}/mcp`, 'execute_code',
      { code: sleepers.length === 0 ? 'import time\ntime.sleep(4)' : 'pass' })
      .catch((e) => ({ status: String(e) }))
      .then((r) => slept.push(`${r.status} ${r.text?.slice(0, 200)}`)));
    await waitFor(what, async () => {
      full = [await metric(addr.p1, 'pyward_runs_in_flight'),
        await metric(addr.p1, 'pyward_queue_depth')];
      return ready(full);
    }, 10000).catch((e) => {
      throw new Error(`${e.message}: in flight, queued ${full}; answered: ${slept.join('; ')}`);
    });
  }
  const busy = await rawPost(url, 'execute_code', { code: 'print(x)', session_id: s1?.sid });
  point(busy.status === 503 && busy.retryAfter !== null,
    `a call to a session on a full instance gets its 503 with Retry-After (${busy.status})`,
    busy.text.slice(0, 300));
  await Promise.all(sleepers);
  point(slept.every((r) => r.startsWith('200 ')), 'both runs that filled p1 were answered 200',
    slept.join('\n'));

  // p3 killed: once HAProxy has it DOWN, its sessions' calls go to
  // another instance, which says "unknown session"; the others' go on.
  // (A busy p1 may have failed a readiness check: UP again first.)
  await waitUp(sock);
  pyw[2].proc.kill('SIGKILL');
  await waitFor('p3 DOWN, p1 and p2 UP', async () => {
    const st = await stats(sock);
    return st.pyward3?.status?.startsWith('DOWN') && st.pyward1?.status === 'UP' &&
      st.pyward2?.status === 'UP';
  }, 15000);
  const dead = sessions.filter((s) => s.at === 'p3');
  const told = [];
  for (const s of dead) {
    try {
      const r = await exec(s.kind.client, s.sid, 'print(x)');
      told.push(r.isError && /unknown session/.test(textOf(r)) ? null : `${s.sid}: ${textOf(r)}`);
    } catch (e) {
      told.push(`${s.sid}: ${e?.message ?? e}`);
    }
  }
  point(dead.length > 0 && told.every((x) => x === null),
    `with p3 DOWN, each of its ${dead.length} sessions' calls is answered "unknown session" ` +
    `(${[...new Set(dead.map((s) => s.kind.name))].join(', ')})`, told.filter(Boolean).join('\n'));
  const alive = [s1, s2].filter(Boolean);
  const still = await Promise.all(alive.map((s) => exec(s.kind.client, s.sid, 'print(x)')));
  point(alive.length === 2 && still.every((r) => stdoutOf(r) === want),
    'with p3 DOWN, sessions on p1 and p2 still reach their instances',
    still.map((r) => JSON.stringify(r)).join('\n'));

  for (const k of kinds) await k.client.close();
  const codes = await Promise.all([pyw[0], pyw[1]].map(({ proc }) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running after 40 s'), 40000);
    proc.on('exit', (code, sig) => { clearTimeout(timer); resolve(sig ?? code); });
    proc.kill('SIGTERM');
  })));
  point(codes.every((c) => c === 0), `p1 and p2 exit 0 on SIGTERM (${codes.join(', ')})`);
  note(`sessions per instance p1/p2/p3: ${where.join('/')}, ${INCS + 2} calls each`);
  t.plan();
}

const watchdog = setTimeout(() => {
  point(false, `the sessions run ended within ${RUN_LIMIT_MS / 1000} s`);
  t.plan();
  stopAll();
}, RUN_LIMIT_MS);
watchdog.unref();

main()
  .catch((e) => {
    point(false, 'the sessions run completed', e?.stack ?? e);
    t.plan();
  })
  .finally(() => {
    if (t.failures > 0 && hap !== null) note(`HAProxy's log:\n${hap.log().slice(-3000)}`);
    stopAll();
  });
