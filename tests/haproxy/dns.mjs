// SPDX-License-Identifier: Apache-2.0
// dns.mjs - the Kubernetes router (contrib/kubernetes/haproxy.cfg) without
// a cluster: `pyward serve --http` instances on loopback addresses
// 127.0.0.21, .22, .23, one port, each with --instance-id podN as the
// StatefulSet gives it; a dnsmasq on 127.0.0.1 answering their names as
// the headless Service pyward-pods would (pyward-pods.test.svc.
// cluster.local: every pod; pyward-N.pyward-pods...: pod N), from a hosts
// file this script rewrites (SIGHUP: read again); HAProxy on the shipped
// file, its one parse-resolv-conf line pointed at that dnsmasq.  Then:
// HAProxy finds the pods; sessions made through it keep their state on
// their pod (by the body, by the Mcp-Param-Session-Id header, by the
// body when the header is in its =?base64?...?= form); a killed
// pod's sessions are told so (the router's 503, then "unknown session"
// once DNS drops the pod) while new sessions go to the others; an added
// pod is found and its sessions routed to it; a handle naming no pod is
// "unknown session".  TAP on stdout; every wait is bounded.
// Usage: node dns.mjs PYWARD CFG WORKDIR  (DNSMASQ_USER, DNSMASQ_GROUP:
// who dnsmasq runs as; CLUSTER_PIDS: see cluster.mjs)
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  freePort, sleep, startHaproxy, startPyward, stats, stopAll, tap, track, waitFor,
} from './cluster.mjs';

const [PYWARD, CFG, WORK] = process.argv.slice(2);
const TOKEN = `pyward-dns-${process.pid}`;
const DOMAIN = 'test.svc.cluster.local';
const SERVICE = `pyward-pods.${DOMAIN}`;
const HANDLE = /^ps-(pod[0-9]+)-[0-9a-f]+$/;
const CALL_LIMIT_MS = 30000;

const t = tap();
const { point, note } = t;

const podAddr = (k) => `127.0.0.${21 + k}`;
const podName = (k) => `pyward-${k}.${SERVICE}`;

// The hosts file dnsmasq answers from: each pod's own name and the
// Service's name, as the headless Service publishes the ready pods.
function writeHosts(path, pods) {
  writeFileSync(path, pods.map((k) => `${podAddr(k)} ${podName(k)} ${SERVICE}\n`).join(''));
}

// dnsmasq in the foreground on 127.0.0.1:PORT, authoritative for
// cluster.local (a name it does not hold is NXDOMAIN), nothing else read.
function startDnsmasq(hosts, port) {
  const proc = track(spawn('dnsmasq', [
    '--keep-in-foreground', '--log-facility=-', '--conf-file=/dev/null', '--no-resolv',
    '--no-hosts', `--addn-hosts=${hosts}`, '--local=/cluster.local/',
    '--listen-address=127.0.0.1', '--bind-interfaces', `--port=${port}`, '--pid-file=',
    `--user=${process.env.DNSMASQ_USER ?? 'nobody'}`,
    `--group=${process.env.DNSMASQ_GROUP ?? 'nogroup'}`,
  ], { stdio: ['ignore', 'ignore', 'pipe'] }));
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  return { proc, log: () => err };
}

// SIGHUP, and wait until dnsmasq has read the hosts file again.
async function reload(dns) {
  const seen = (dns.log().match(/read \S+ - \d+ names/g) ?? []).length;
  dns.proc.kill('SIGHUP');
  await waitFor('dnsmasq to read its hosts file again',
    () => (dns.log().match(/read \S+ - \d+ names/g) ?? []).length > seen, 10000);
}

let url;
let rawId = 0;

// A tools/call through HAProxy; with HEADER, the handle goes in
// Mcp-Param-Session-Id too.  Resolves to { status, json, text }.
// HEADER 'base64': the header's =?base64?...?= form; HIDE: the body's key
// written session\u005fid, which only a JSON parser reads as session_id.
async function call(name, args, header = false, to = url, hide = false) {
  const headers = {
    'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${TOKEN}`,
  };
  if (header && args.session_id) {
    headers['Mcp-Param-Session-Id'] = header === 'base64'
      ? `=?base64?${Buffer.from(args.session_id).toString('base64')}?=` : args.session_id;
  }
  let body = JSON.stringify({ jsonrpc: '2.0', id: ++rawId, method: 'tools/call',
    params: { name, arguments: args } });
  if (hide) body = body.replace('"session_id"', '"session\\u005fid"');
  const r = await fetch(to, {
    method: 'POST', headers, signal: AbortSignal.timeout(CALL_LIMIT_MS), body,
  });
  const text = await r.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: r.status, json, text };
}

const textOf = (r) => (r.json?.result?.content ?? []).map((c) => c.text ?? '').join(' ');

async function create() {
  const r = await call('create_session', {});
  return r.json?.result?.structuredContent?.session_id ?? `error: ${r.status} ${r.text.slice(0, 300)}`;
}

// x = 1, x += 1 twice, print(x) on SID, alternately by body and header:
// "3\n" only if every call reached the pod that holds it.
async function chain(sid) {
  const codes = ['x = 1', 'x += 1', 'x += 1', 'print(x)'];
  let r;
  for (let i = 0; i < codes.length; i++) {
    r = await call('execute_code', { code: codes[i], session_id: sid }, i % 2 === 1);
    if (r.status !== 200 || r.json?.result?.isError) return `error: ${r.status} ${r.text.slice(0, 300)}`;
  }
  return r.json.result.structuredContent.stdout;
}

// Until FN's answer for a call is final (true) or the limit: each answer
// must be one of GOOD's (a predicate), else the last is returned.
async function answers(fn, good, final, ms) {
  const until = Date.now() + ms;
  const seen = [];
  for (;;) {
    const r = await fn();
    seen.push(r);
    if (!good(r)) return { ok: false, seen };
    if (final(r)) return { ok: true, seen };
    if (Date.now() > until) return { ok: false, seen };
    await sleep(100);
  }
}

// The addresses of the router's slots that are UP.
async function slots(sock) {
  const s = await stats(sock);
  return Object.values(s).filter((r) => r.svname.startsWith('slot') && r.status === 'UP')
    .map((r) => r.addr.split(':')[0]).sort();
}

async function main() {
  const tokens = join(WORK, 'tokens');
  writeFileSync(tokens, `${TOKEN}\n`, { mode: 0o600 });
  const hosts = join(WORK, 'hosts');
  writeHosts(hosts, [0, 1, 2]);
  let dns = null;
  let dnsPort = 0;
  for (let tries = 0; tries < 5 && dns === null; tries++) {
    dnsPort = await freePort();
    const d = startDnsmasq(hosts, dnsPort);
    try {
      await waitFor('dnsmasq to read its hosts file', () => /read \S+ - \d+ names/.test(d.log())
        || d.proc.exitCode !== null, 10000);
    } catch (e) {
      note(d.log());
      throw e;
    }
    if (d.proc.exitCode === null) dns = d;
    else note(`dnsmasq on port ${dnsPort} exited: ${d.log()}`);
  }
  point(dns !== null, `dnsmasq answers the pods' names on 127.0.0.1:${dnsPort}`);
  if (dns === null) return;

  // The shipped file, its nameserver the dnsmasq: one line changed.
  const shipped = readFileSync(CFG, 'utf8');
  const lines = shipped.split('\n');
  const at = lines.flatMap((l, i) => (l.trim() === 'parse-resolv-conf' ? [i] : []));
  point(at.length === 1, 'the shipped router takes its nameserver from one parse-resolv-conf line');
  lines[at[0]] = `    nameserver test 127.0.0.1:${dnsPort}`;
  const cfg = join(WORK, 'haproxy-dns.cfg');
  writeFileSync(cfg, lines.join('\n'));

  const port = await freePort('0.0.0.0');
  const pyward = (k) => startPyward(PYWARD, tokens, ['--instance-id', `pod${k}`,
    '--max-concurrency', '2', '--max-sessions-per-client', '16'], `${podAddr(k)}:${port}`);
  const pods = await Promise.all([0, 1, 2].map(pyward));
  const front = await freePort();
  const sock = join(WORK, 'haproxy-dns.sock');
  const hap = startHaproxy(cfg, {
    PYWARD_BIND: `127.0.0.1:${front}`, PYWARD_PORT: String(port), POD_NAMESPACE: 'test',
    CLUSTER_DOMAIN: 'cluster.local', PYWARD_DNS_HOLD: '1s', HAPROXY_STATS_SOCKET: sock,
  });
  url = new URL(`http://127.0.0.1:${front}/mcp`);
  const want3 = [0, 1, 2].map(podAddr).sort();
  try {
    await waitFor('HAProxy to find the three pods UP', async () => {
      try {
        return JSON.stringify(await slots(sock)) === JSON.stringify(want3);
      } catch {
        return false;
      }
    }, 30000);
    point(true, `HAProxy finds the three pods by DNS (${want3.join(', ')})`);
  } catch (e) {
    point(false, 'HAProxy finds the three pods by DNS', `${e.message}\n${JSON.stringify(await stats(sock))}\n${hap.log().slice(-3000)}`);
    return;
  }

  // Sessions through HAProxy, on their pods.
  const sids = [];
  for (let i = 0; i < 6; i++) sids.push(await create());
  const on = sids.map((s) => HANDLE.exec(s)?.[1]);
  point(on.every(Boolean) && new Set(on).size === 3,
    `six sessions made through HAProxy, on every pod (${on.join(', ')})`, sids.join('\n'));
  const got = await Promise.all(sids.map(chain));
  point(got.every((g) => g === '3\n'),
    'each keeps its state: every call reached its pod (by the body and by the header)',
    got.join('\n'));
  const of1 = sids.filter((s) => s.includes('-pod1-'));
  const wrong = await call('execute_code', { code: 'print(x)', session_id: of1[0] ?? '' }, false,
    new URL(`http://${pods[0].addr}/mcp`));
  point(/unknown session/.test(textOf(wrong)),
    'another pod answers a session "unknown session" (so the routing is what kept them)',
    wrong.text.slice(0, 300));

  // The header's other form, and a body whose key only a parser reads.
  const forms = await Promise.all(sids.map((sid, i) => call('execute_code',
    { code: 'print(x)', session_id: sid }, i % 2 ? 'base64' : true, url, i % 2 === 0)));
  point(forms.every((r) => r.json?.result?.structuredContent?.stdout === '3\n'),
    'a =?base64?...?= header is routed by the body, a body hiding session_id by the header',
    forms.map((r) => r.text.slice(0, 200)).join('\n'));

  // pod1 killed: its sessions are told, new ones go to the others.
  pods[1].proc.kill('SIGKILL');
  await waitFor('pod1 to exit', () => pods[1].proc.exitCode !== null || pods[1].proc.signalCode !== null, 10000);
  const gone = /does not answer/;
  const first = await call('execute_code', { code: 'print(x)', session_id: of1[0] ?? '' });
  point(first.status === 503 && gone.test(first.text),
    'a killed pod that DNS still names: its session\'s call gets the router\'s 503 saying so',
    `${first.status} ${first.text.slice(0, 300)}`);
  writeHosts(hosts, [0, 2]);
  await reload(dns);
  const told = await Promise.all(of1.map((sid) => answers(
    () => call('execute_code', { code: 'print(x)', session_id: sid }, true),
    (r) => (r.status === 503 && gone.test(r.text)) ||
      (r.status === 200 && /unknown session/.test(textOf(r)) && r.json.result.isError),
    (r) => r.status === 200, 30000)));
  point(of1.length > 0 && told.every((x) => x.ok),
    'once DNS drops it, the killed pod\'s sessions are "unknown session" (only the router\'s 503 before)',
    told.map((x) => x.seen.map((r) => `${r.status} ${r.text.slice(0, 200)}`).join('\n')).join('\n--\n'));
  const after = [];
  for (let i = 0; i < 4; i++) after.push(await create());
  const on2 = after.map((s) => HANDLE.exec(s)?.[1]);
  const got2 = await Promise.all(after.map(chain));
  point(on2.every((p) => p === 'pod0' || p === 'pod2') && got2.every((g) => g === '3\n'),
    `new sessions go to the other pods and work (${on2.join(', ')})`,
    `${after.join('\n')}\n${got2.join('\n')}`);
  const others = sids.filter((s) => !s.includes('-pod1-'));
  const still = await Promise.all(others.map((sid) => call('execute_code',
    { code: 'print(x)', session_id: sid }, true)));
  point(still.every((r) => r.json?.result?.structuredContent?.stdout === '3\n'),
    'the other pods\' sessions go on', still.map((r) => r.text.slice(0, 200)).join('\n'));

  // pod3 added: found by DNS, its sessions routed to it.
  pods[3] = await pyward(3);
  writeHosts(hosts, [0, 2, 3]);
  await reload(dns);
  const want = [0, 2, 3].map(podAddr).sort();
  try {
    await waitFor('HAProxy to find pod3', async () =>
      JSON.stringify(await slots(sock)) === JSON.stringify(want), 30000);
    point(true, `an added pod is found by DNS (${want.join(', ')} UP)`);
  } catch (e) {
    point(false, 'an added pod is found by DNS', `${JSON.stringify(await slots(sock))}\n${hap.log().slice(-3000)}`);
  }
  let on3 = null;
  const tried = [];
  for (let i = 0; i < 12 && on3 === null; i++) {
    const sid = await create();
    tried.push(sid);
    if (sid.includes('-pod3-')) on3 = sid;
  }
  point(on3 !== null, 'new sessions reach the added pod', tried.join('\n'));
  const got3 = on3 ? await chain(on3) : 'none';
  point(got3 === '3\n', 'a session on the added pod keeps its state through HAProxy', got3);

  // A handle of a pod that is not there.
  const none = await call('execute_code', { code: 'print(1)', session_id: 'ps-pod7-0123abcd' }, true);
  point(none.status === 200 && /unknown session/.test(textOf(none)),
    'a handle naming no pod is balanced and answered "unknown session"',
    `${none.status} ${none.text.slice(0, 300)}`);
}

const limit = setTimeout(() => {
  point(false, 'the test ends within 150 s');
  t.plan();
  stopAll();
}, 150000);
try {
  await main();
} catch (e) {
  point(false, 'the test ran to its end', e?.stack ?? e);
}
clearTimeout(limit);
t.plan();
stopAll();
