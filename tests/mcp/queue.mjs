// SPDX-License-Identifier: Apache-2.0
// queue.mjs - the run queue under stdio: no request holds up another.
// Every check is on the order the answers come in, never on a clock: a
// ping and a short execute_code sent after a grade_code of 30 busy tests
// are answered before it; a ping sent with a data_science create_session
// is answered before the session is; a grade_code cancelled mid-suite
// leaves no run of it working and the server answers the next request;
// a ping and a short execute_code sent after a validate_code and an
// execute_code of a 300 KB program are answered before either (the
// program is validated by a validator process, not on the loop), and
// under --skip-validation a ping is answered before a grade_code of it
// (compiled there too, nothing checked: an import of os is the guard's
// RE, not CE); a ping
// sent after a fork_session whose session does not answer yet (stopped)
// is answered before it, and the copy is made once the session goes on;
// a validator process killed during a check fails that check (the
// program is not run) and the next check gets a new one; 10,000
// execute_code written at once are each answered (a run, or "server
// busy" past the queue's bound), a ping after them comes before the
// last run, and the server's memory stays bounded; 300 pings, a third
// of them over the parse worker's threshold, written in pieces cut
// anywhere, are each answered in the order sent.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Session } from './session.mjs';
import { childrenNamed, procField } from '../mcp-client/proc.mjs';

// Each test busy-loops BUSY seconds of CPU time, then echoes its input.
const busyCode = (busy) => [
  'import time',
  't = time.process_time()',
  `while time.process_time() - t < ${busy}:`,
  '    pass',
  'print(input())',
].join('\n');

const suite = (n) => ({
  tests: Array.from({ length: n }, (_, i) => ({
    name: `t${i}`, stdin: `${i}\n`, expected_stdout: `${i}\n`,
  })),
});

const call = (id, name, args, meta) => ({
  jsonrpc: '2.0', id, method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

// The replies to the ids of WANT, in the order they came (stray replies
// ignored), or null if one never came within MS.
async function collect(s, want, ms) {
  const got = [];
  const replies = new Map();
  while (got.length < want.length) {
    const m = await s.next(ms);
    if (m === null) return null;
    if (want.includes(m.msg.id) && !replies.has(m.msg.id)) {
      got.push(m.msg.id);
      replies.set(m.msg.id, m.msg);
    }
  }
  return { order: got, replies };
}

// CPU ticks (utime + stime) of process PID, or 0 once it is gone.
function ticks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A program of about 300 KB of dense expressions, printing "big": its
// validation takes the validator a good part of a second on this kind of
// host (tests/bigprog.py makes it, for every driver).
export function bigProgram(bytes = 300000) {
  return execFileSync('python3', [new URL('../bigprog.py', import.meta.url).pathname, String(bytes)],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
}

export async function pingDuringValidation(point) {
  const s = new Session();
  await s.initialize();
  await s.request('tools/call', { name: 'execute_code', arguments: { code: 'print(1)' } }, 30000);
  const big = bigProgram();
  s.send(call('check', 'validate_code', { code: big }));
  s.send(call('run', 'execute_code', { code: big }));
  s.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  s.send(call('short', 'execute_code', { code: 'print(6*7)' }));
  const r = await collect(s, ['check', 'run', 'ping', 'short'], 120000);
  const short = r?.replies.get('short')?.result?.structuredContent;
  const first = r?.order.slice(0, 2).sort().join(',');
  point('stdio: a ping and a short execute_code sent after a validate_code and an execute_code of a 300 KB program are answered before either',
    first === 'ping,short' && short?.stdout === '42\n'
      ? null : `order ${r?.order}; short ${JSON.stringify(short)?.slice(0, 200)}`);
  const check = r?.replies.get('check')?.result?.structuredContent;
  const run = r?.replies.get('run')?.result?.structuredContent;
  point('stdio: that validate_code finds the program valid, and that execute_code runs it',
    check?.validation?.valid === true && check?.analysis?.line_count > 1000 && run?.stdout === 'big\n'
      ? null : `${JSON.stringify(check)?.slice(0, 300)}; ${JSON.stringify(run)?.slice(0, 300)}`);
  // A rejected long program: the rejection comes from the validator
  // process as from the loop, and counts as one.
  const bad = `${big}\nimport os\n`;
  const rej = await s.request('tools/call', { name: 'execute_code', arguments: { code: bad } }, 60000);
  const rsc = rej?.result?.structuredContent;
  point('stdio: an execute_code of a long program that imports os is rejected, the finding on its last line',
    rsc?.status === 'rejected' && rsc?.validation?.findings?.some((f) => f.line === big.split('\n').length + 1)
      ? null : JSON.stringify(rej)?.slice(0, 400));
  const graded = await s.request('tools/call', { name: 'grade_code', arguments: { code: big, tests: { tests: [{ name: 'one', expected_stdout: 'big\n' }] } } }, 60000);
  const ce = await s.request('tools/call', { name: 'grade_code', arguments: { code: bad, tests: { tests: [{ name: 'one', expected_stdout: 'big\n' }] } } }, 60000);
  point('stdio: grade_code of that long program: AC, and CE once it imports os',
    graded?.result?.structuredContent?.verdict === 'AC' && ce?.result?.structuredContent?.verdict === 'CE'
      ? null : `${JSON.stringify(graded)?.slice(0, 300)}; ${JSON.stringify(ce)?.slice(0, 300)}`);
  // One whose compile warns: the validator process's compile gives no
  // code, and each test's run compiles it (not the server's loop again),
  // the warning on its stderr as python3 prints it.
  const warns = `${big}\nx = 0 is 0\n`;
  const two = { tests: ['a', 'b'].map((name) => ({ name, expected_stdout: 'big\n' })) };
  const gw = await s.request('tools/call', { name: 'grade_code', arguments: { code: warns, tests: two } }, 60000);
  const gws = gw?.result?.structuredContent;
  point('stdio: grade_code of that long program with a SyntaxWarning: AC on both tests, each showing the warning',
    gws?.verdict === 'AC' && gws?.tests?.length === 2 &&
    gws.tests.every((t) => /SyntaxWarning: "is" with a literal/.test(t.stderr ?? ''))
      ? null : JSON.stringify(gw)?.slice(0, 400));
  await s.close();
}

// Under --skip-validation (the runtime's layers alone) nothing is
// checked, and a suite's program is compiled by a validator process, not
// on the loop: a ping sent after a grade_code of the 300 KB program is
// answered before it, which is AC; a program importing os is not CE but
// runs, and the guard refuses the import (RE with its ImportError).
export async function skipValidationOffLoop(point) {
  const s = new Session(['--skip-validation']);
  await s.initialize();
  await s.request('tools/call', { name: 'execute_code', arguments: { code: 'print(1)' } }, 30000);
  const two = { tests: ['a', 'b'].map((name) => ({ name, expected_stdout: 'big\n' })) };
  const big = bigProgram();
  const { busy } = await busyVproc(s, () => {
    s.send(call('grade', 'grade_code', { code: big, tests: two }));
    s.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  });
  const r = await collect(s, ['grade', 'ping'], 120000);
  const g = r?.replies.get('grade')?.result?.structuredContent;
  point('stdio --skip-validation: a grade_code of the 300 KB program is compiled by a validator process, a ping sent after it is answered first, and the grade is AC',
    busy !== undefined && r?.order[0] === 'ping' && g?.verdict === 'AC' && g?.tests?.length === 2
      ? null : `busy ${busy}; order ${r?.order}; ${JSON.stringify(g)?.slice(0, 300)}`);
  const os = await s.request('tools/call', { name: 'grade_code', arguments: { code: 'import os\nprint(1)\n', tests: two } }, 60000);
  const o = os?.result?.structuredContent;
  point('stdio --skip-validation: grade_code of a program importing os is run, not CE: RE with the guard\'s ImportError',
    o?.verdict === 'RE' && o?.tests?.every((t) => /ImportError/.test(t.message ?? ''))
      ? null : JSON.stringify(os)?.slice(0, 400));
  await s.close();
}

// The server's child that is SID's process: the one whose resident set
// holds the 96 MiB the session keeps.
async function sessionProcess(s, sid) {
  const keep = await s.request('tools/call', { name: 'execute_code', arguments: { session_id: sid, code: "keep = b'k' * (96 << 20)\nprint(len(keep))" } }, 60000);
  if (keep?.result?.structuredContent?.stdout !== `${96 << 20}\n`) return null;
  const big = childrenNamed(s.proc.pid, 'pyward-run').filter((p) => procField(p, 'status', 'VmRSS:') > 96 * 1024);
  return big.length === 1 ? big[0] : null;
}

// The validator process of S's server that works once SEND() is called
// (the one whose CPU time grows first, looked for every 5 ms for 5 s at
// the most; undefined if none does), and all of them.
async function busyVproc(s, send) {
  const vprocs = childrenNamed(s.proc.pid, 'pyward-vproc');
  const before = new Map(vprocs.map((p) => [p, ticks(p)]));
  send();
  let busy;
  for (let i = 0; i < 1000 && busy === undefined; i++) {
    busy = vprocs.find((p) => ticks(p) > before.get(p));
    if (busy === undefined) await sleep(5);
  }
  return { busy, vprocs };
}

export async function validatorKilled(point) {
  const s = new Session();
  await s.initialize();
  const big = bigProgram();
  const { busy, vprocs } = await busyVproc(s, () => s.send(call('run', 'execute_code', { code: big })));
  if (busy !== undefined) process.kill(busy, 'SIGKILL');
  const r = await collect(s, ['run'], 60000);
  const res = r?.replies.get('run')?.result;
  point('stdio: a validator process killed during a check: that execute_code is answered "not checked" and not run',
    vprocs.length === 2 && busy !== undefined && res?.isError === true &&
    /not checked/.test(res?.content?.[0]?.text ?? '') && res?.structuredContent?.stdout === undefined
      ? null : `vprocs ${vprocs} busy ${busy}: ${JSON.stringify(res)?.slice(0, 300)}`);
  const again = await s.request('tools/call', { name: 'execute_code', arguments: { code: big } }, 60000);
  const now = childrenNamed(s.proc.pid, 'pyward-vproc');
  point('stdio: the next long program is checked by a new validator process and runs',
    again?.result?.structuredContent?.stdout === 'big\n' && now.length === 2 && !now.includes(busy)
      ? null : `${now}: ${JSON.stringify(again)?.slice(0, 300)}`);
  await s.close();
}

// grade_code of a short program judged by a checker program of about
// 300 KB on two tests: the checker prints its verdict, then runs the
// long program (its feedback: "big").
const checkerGrade = () => ({
  code: 'print(input())',
  tests: {
    checker_code: `import json\nd = json.loads(input())\nprint('AC' if d['output'] == d['expected'] else 'WA')\n${bigProgram()}\n`,
    tests: [0, 1].map((i) => ({ name: `t${i}`, stdin: `${i}\n`, expected_stdout: `${i}\n`, checker: 'program' })),
  },
});

// A grade_code whose checker program is 300 KB: the checker is compiled
// by a validator process (found working), and a ping and a short
// execute_code sent meanwhile are answered before the grade.
export async function pingDuringChecker(point) {
  const s = new Session();
  await s.initialize();
  await s.request('tools/call', { name: 'execute_code', arguments: { code: 'print(1)' } }, 30000);
  const { busy } = await busyVproc(s, () => s.send(call('grade', 'grade_code', checkerGrade())));
  s.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  s.send(call('short', 'execute_code', { code: 'print(6*7)' }));
  const r = await collect(s, ['grade', 'ping', 'short'], 120000);
  const short = r?.replies.get('short')?.result?.structuredContent;
  point('stdio: a grade_code with a 300 KB checker program: a validator process compiles the checker, and a ping and a short execute_code sent meanwhile are answered before the grade',
    busy !== undefined && r?.order.slice(0, 2).sort().join(',') === 'ping,short' && short?.stdout === '42\n'
      ? null : `busy ${busy}; order ${r?.order}; short ${JSON.stringify(short)?.slice(0, 200)}`);
  const g = r?.replies.get('grade')?.result?.structuredContent;
  point('stdio: that grade_code is AC on both tests, judged by its checker',
    g?.verdict === 'AC' && g?.passed === 2 && g?.tests?.every((t) => /big/.test(t.feedback ?? ''))
      ? null : JSON.stringify(g)?.slice(0, 400));
  // Killed while it compiles that checker: the grade is answered "not
  // checked" without a test run, and the next one gets a new process.
  const k = await busyVproc(s, () => s.send(call('again', 'grade_code', checkerGrade())));
  if (k.busy !== undefined) process.kill(k.busy, 'SIGKILL');
  const kr = await collect(s, ['again'], 60000);
  const kres = kr?.replies.get('again')?.result;
  point('stdio: a validator process killed while it compiles a grade_code\'s checker: answered "not checked", no test run',
    k.busy !== undefined && kres?.isError === true && /not checked/.test(kres?.content?.[0]?.text ?? '') &&
    kres?.structuredContent === undefined
      ? null : `busy ${k.busy}: ${JSON.stringify(kres)?.slice(0, 300)}`);
  const next = await s.request('tools/call', { name: 'grade_code', arguments: checkerGrade() }, 120000);
  const now = childrenNamed(s.proc.pid, 'pyward-vproc');
  point('stdio: the next grade_code with that checker is AC, its checker compiled by a new validator process',
    next?.result?.structuredContent?.verdict === 'AC' && now.length === 2 && !now.includes(k.busy)
      ? null : `${now}: ${JSON.stringify(next)?.slice(0, 300)}`);
  // Cancelled while its checker is compiled: never answered; the server
  // goes on.
  const c = await busyVproc(s, () => s.send(call('gone', 'grade_code', checkerGrade())));
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'gone' } });
  const after = await s.request('tools/call', { name: 'grade_code', arguments: checkerGrade() }, 120000);
  point('stdio: a grade_code cancelled while its checker is compiled is never answered; the next one is AC',
    c.busy !== undefined && after?.result?.structuredContent?.verdict === 'AC' &&
    !(s.stray ?? []).some((m) => m.msg.id === 'gone')
      ? null : `busy ${c.busy}: ${JSON.stringify(after)?.slice(0, 300)}; stray ${JSON.stringify(s.stray)?.slice(0, 300)}`);
  await s.close();
}

// compat mode's validate_script of a 300 KB script: checked by a
// validator process; a ping sent meanwhile is answered first; the
// answer as before; killed mid-check: "not checked".
export async function pingDuringCompatValidate(point) {
  const s = new Session(['--compat', 'mcp-python-exec-sandbox']);
  await s.initialize();
  const big = bigProgram();
  const { busy } = await busyVproc(s, () => s.send(call('check', 'validate_script', { script: big })));
  s.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  const r = await collect(s, ['check', 'ping'], 120000);
  const text = r?.replies.get('check')?.result?.content?.[0]?.text;
  point('stdio --compat mcp-python-exec-sandbox: a validate_script of a 300 KB script is checked by a validator process, and a ping sent meanwhile is answered before it',
    busy !== undefined && r?.order[0] === 'ping' ? null : `busy ${busy}; order ${r?.order}`);
  point('stdio --compat mcp-python-exec-sandbox: that validate_script says VALID, no dependencies',
    text === 'VALID\ndependencies: none' ? null : JSON.stringify(r?.replies.get('check'))?.slice(0, 300));
  const bad = await s.request('tools/call', { name: 'validate_script', arguments: { script: `${big}\nimport os\n` } }, 60000);
  point('stdio --compat mcp-python-exec-sandbox: a 300 KB script that imports os: INVALID, the finding on its last line',
    new RegExp(`^INVALID: Line ${big.split('\n').length + 1}: .*os`).test(bad?.result?.content?.[0]?.text ?? '')
      ? null : JSON.stringify(bad)?.slice(0, 300));
  const k = await busyVproc(s, () => s.send(call('killed', 'validate_script', { script: big })));
  if (k.busy !== undefined) process.kill(k.busy, 'SIGKILL');
  const kr = await collect(s, ['killed'], 60000);
  const kres = kr?.replies.get('killed')?.result;
  point('stdio --compat mcp-python-exec-sandbox: a validator process killed during a validate_script: answered "not checked"',
    k.busy !== undefined && kres?.isError === true && /^validate_script: not checked/.test(kres?.content?.[0]?.text ?? '')
      ? null : `busy ${k.busy}: ${JSON.stringify(kres)?.slice(0, 300)}`);
  await s.close();
}

export async function pingDuringFork(point, skip) {
  const s = new Session();
  await s.initialize();
  const made = await s.request('tools/call', { name: 'create_session', arguments: {} }, 60000);
  const sid = made?.result?.structuredContent?.session_id;
  const pid = typeof sid === 'string' ? await sessionProcess(s, sid) : null;
  if (pid === null) {
    point('stdio: the session\'s process is found', `${JSON.stringify(made)?.slice(0, 300)}`);
    await s.close();
    return;
  }
  // Stopped, the session cannot answer the fork request: the fork waits.
  process.kill(pid, 'SIGSTOP');
  s.send(call('fork', 'fork_session', { session_id: sid }));
  s.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  // The first answer: the ping's, while the fork waits (an old loop
  // waited the fork's 5 s out first).
  let m;
  do {
    m = await s.next(30000);
  } while (m !== null && !['ping', 'fork'].includes(m.msg.id));
  process.kill(pid, 'SIGCONT');
  const firstId = m?.msg.id;
  const rest = firstId === 'ping' ? await collect(s, ['fork'], 30000) : null;
  const fork = (firstId === 'fork' ? m.msg : rest?.replies.get('fork'))?.result;
  if (fork?.isError && /cannot|does not give|need/.test(fork?.content?.[0]?.text ?? '')) {
    skip('stdio: a ping sent after a fork_session whose session is stopped is answered first', fork.content[0].text);
    await s.close();
    return;
  }
  point('stdio: a ping sent after a fork_session whose session is stopped is answered first',
    firstId === 'ping' ? null : `first ${firstId}; ${JSON.stringify(fork)?.slice(0, 300)}`);
  const copy = fork?.structuredContent?.session_id;
  const used = typeof copy === 'string'
    ? await s.request('tools/call', { name: 'execute_code', arguments: { session_id: copy, code: 'print(len(keep))' } }, 60000)
    : null;
  point('stdio: once the session goes on, the copy is made and has its state',
    used?.result?.structuredContent?.stdout === `${96 << 20}\n` ? null : `${JSON.stringify(fork)?.slice(0, 300)}; ${JSON.stringify(used)?.slice(0, 300)}`);
  await s.close();
}

async function gradeThenPing(point) {
  const s = new Session();
  await s.initialize();
  // A first run: the sandbox is warm before the suite comes.
  await s.request('tools/call', { name: 'execute_code', arguments: { code: 'print(1)' } }, 30000);
  s.send(call('grade', 'grade_code', { code: busyCode(0.3), tests: suite(30) }));
  s.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  s.send(call('short', 'execute_code', { code: 'print(6*7)' }));
  const r = await collect(s, ['grade', 'ping', 'short'], 180000);
  const grade = r?.replies.get('grade')?.result?.structuredContent;
  const short = r?.replies.get('short')?.result?.structuredContent;
  point('stdio: a ping and a short execute_code sent after a grade_code of 30 busy tests are answered before it',
    r && r.order.indexOf('grade') === 2 && short?.stdout === '42\n'
      ? null : `order ${r?.order}; short ${JSON.stringify(short)?.slice(0, 200)}`);
  point('stdio: that grade_code still grades every test (AC, 30 of 30)',
    grade?.verdict === 'AC' && grade?.passed === 30 ? null
      : JSON.stringify(r?.replies.get('grade'))?.slice(0, 400));
  await s.close();
}

async function cancelMidGrade(point) {
  const s = new Session();
  await s.initialize();
  await s.request('tools/call', { name: 'execute_code', arguments: { code: 'print(1)' } }, 30000);
  const idle = childrenNamed(s.proc.pid, 'pyward-run');
  // Tests of 3 s of CPU each: several are working when the cancel comes;
  // the progress token says when the first has started.
  s.send(call('long', 'grade_code', { code: busyCode(3), tests: suite(20) }, { progressToken: 'p' }));
  for (let i = 0; i < 200 && !s.notes.some((n) => n.params?.progressToken === 'p'); i++) {
    await sleep(25);
  }
  const started = s.notes.some((n) => n.params?.progressToken === 'p');
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long' } });
  s.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
  const pong = await collect(s, ['after'], 10000);
  // Whatever the suite had running is killed: over a second, no child
  // of the server (spares waiting, or what is left of the killed runs)
  // works the way a test's busy loop does (100 ticks a second).
  const kids = childrenNamed(s.proc.pid, 'pyward-run');
  const before = new Map(kids.map((p) => [p, ticks(p)]));
  await sleep(1000);
  const busy = kids.filter((p) => ticks(p) - before.get(p) > 30);
  point('stdio: a grade_code cancelled mid-suite: the ping after it is answered, no run of it keeps working',
    started && pong !== null && busy.length === 0
      ? null : `started ${started}, pong ${JSON.stringify(pong?.order)}, busy ${busy} (idle spares ${idle})`);
  const next = await s.request('tools/call', { name: 'execute_code', arguments: { code: 'print(6*7)' } }, 30000);
  const stray = s.lines.filter((l) => l.includes('"id":"long"'));
  point('stdio: after the cancel the next execute_code is answered, and the cancelled grade_code never is',
    next?.result?.structuredContent?.stdout === '42\n' && stray.length === 0
      ? null : `${JSON.stringify(next)?.slice(0, 300)}; stray ${stray.join('\n').slice(0, 200)}`);
  await s.close();
}

async function pingDuringSession(point, skip) {
  const s = new Session(['--profiles', 'basic,data_science']);
  await s.initialize();
  const info = await s.request('tools/call', { name: 'get_sandbox_info', arguments: {} }, 30000);
  const ds = info?.result?.structuredContent?.profiles?.find((p) => p.name === 'data_science');
  if (!ds || !['numpy', 'matplotlib'].every((m) => ds.modules.includes(m))) {
    skip('stdio: a ping sent with a data_science create_session is answered before the session', 'numpy or matplotlib not installed');
    await s.close();
    return;
  }
  s.send(call('create', 'create_session', { profile: 'data_science' }));
  s.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  const r = await collect(s, ['create', 'ping'], 120000);
  const sid = r?.replies.get('create')?.result?.structuredContent?.session_id;
  point('stdio: a ping sent with a data_science create_session is answered before the session',
    r && r.order[0] === 'ping' && typeof sid === 'string'
      ? null : `order ${r?.order}; ${JSON.stringify(r?.replies.get('create'))?.slice(0, 300)}`);
  const used = await s.request('tools/call', { name: 'execute_code', arguments: { session_id: sid, code: 'import numpy\nprint(numpy.arange(3).sum())' } }, 60000);
  point('stdio: the session made while the ping was answered runs its calls',
    used?.result?.structuredContent?.stdout === '3\n' ? null : JSON.stringify(used)?.slice(0, 300));
  await s.close();
}

async function sessionsAtOnce(point) {
  // Two create_session at once for a client allowed one: both wait in
  // the queue together, one session is made and the other refused.
  const s = new Session(['--max-sessions-per-client', '1']);
  await s.initialize();
  s.send(call('one', 'create_session', {}));
  s.send(call('two', 'create_session', {}));
  const r = await collect(s, ['one', 'two'], 60000);
  const made = ['one', 'two'].filter((id) => typeof r?.replies.get(id)?.result?.structuredContent?.session_id === 'string');
  const refused = ['one', 'two'].filter((id) => r?.replies.get(id)?.result?.isError === true &&
    /too many sessions/.test(r.replies.get(id).result.content?.[0]?.text ?? ''));
  point('stdio: two create_session at once past the client\'s limit: one made, one refused',
    made.length === 1 && refused.length === 1 ? null
      : JSON.stringify([...(r?.replies.values() ?? [])]).slice(0, 500));
  await s.close();
}

// True if process PID maps AddressSanitizer's runtime.
function sanitized(pid) {
  try {
    return /libasan|libclang_rt\.asan/.test(readFileSync(`/proc/${pid}/maps`, 'utf8'));
  } catch {
    return false;
  }
}

// Lines over the parse worker's threshold (16 KiB) mixed with short ones,
// several in one write and split at odd places, handed between the loop
// and the worker: each ping is answered once with its own id, in the
// order sent (a ping is answered as soon as it is read), and the server
// lives on.  A small generator (xorshift) makes the sizes and the cuts
// the same every time.
export async function mixedLines(point) {
  const s = new Session();
  await s.initialize();
  let seed = 0x2545f491;
  const rnd = (n) => {
    seed ^= seed << 13; seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5; seed >>>= 0;
    return seed % n;
  };
  const n = 300;
  const ids = Array.from({ length: n }, (_, i) => `m${i}`);
  const text = ids.map((id) => JSON.stringify({
    jsonrpc: '2.0', id, method: 'ping',
    params: { _meta: { pad: 'p'.repeat(rnd(3) === 0 ? 16384 + rnd(65536) : rnd(64)) } },
  })).join('\n') + '\n';
  const buf = Buffer.from(text);
  for (let at = 0; at < buf.length;) {
    const k = 1 + rnd(rnd(4) === 0 ? 300000 : 40000);
    s.proc.stdin.write(buf.subarray(at, at + k));
    at += k;
  }
  const got = [];
  for (;;) {
    const m = await s.next(got.length < n ? 60000 : 300);
    if (m === null) break;
    got.push(m.msg.id);
  }
  point('stdio: 300 pings, a third over 16 KiB, written in pieces cut anywhere: each answered once, in the order sent, and the server lives on',
    !s.dead && got.length === n && got.every((id, i) => id === ids[i])
      ? null : `dead ${s.dead} ${JSON.stringify(await Promise.race([s.exited, sleep(100)]))}; got ${got.length}: ${got.filter((id, i) => id !== ids[i]).slice(0, 5)}`);
  await s.close();
}

export async function flood(point, skip) {
  // 10,000 execute_code requests written at once, then a ping: each is
  // answered, a run or "server busy" past the queue's bound at once; the
  // ping comes before the last run's answer, and the server's peak RSS
  // grows by less than 32 MiB (each queued request holds its arguments).
  const s = new Session();
  await s.initialize();
  await s.request('tools/call', { name: 'execute_code', arguments: { code: 'print(1)' } }, 30000);
  const before = procField(s.proc.pid, 'status', 'VmHWM:');
  const n = 10000;
  const ids = Array.from({ length: n }, (_, i) => `f${i}`);
  const lines = ids.map((id, i) => JSON.stringify(call(id, 'execute_code', { code: `print(${i})` })));
  s.proc.stdin.write(`${lines.join('\n')}\n`);
  s.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
  const r = await collect(s, [...ids, 'ping'], 600000);
  const peak = procField(s.proc.pid, 'status', 'VmHWM:');
  let ran = 0;
  let busy = 0;
  let wrong = null;
  ids.forEach((id, i) => {
    const m = r?.replies.get(id);
    if (m?.result?.structuredContent?.stdout === `${i}\n`) {
      ran++;
    } else if (m?.error?.code === -32000 && /server busy/.test(m.error.message)) {
      busy++;
    } else if (wrong === null) {
      wrong = JSON.stringify(m)?.slice(0, 300);
    }
  });
  point('stdio: 10,000 execute_code at once: each is answered, its run or "server busy" past the queue\'s bound',
    r && wrong === null && ran > 0 && busy > 0 && ran + busy === n ? null : `ran ${ran} busy ${busy} ${wrong}`);
  const lastRun = r ? Math.max(...ids.filter((id) => r.replies.get(id)?.result).map((id) => r.order.indexOf(id))) : -1;
  point('stdio: a ping written after those 10,000 is answered before the last of their runs',
    r && r.order.indexOf('ping') < lastRun ? null : `ping at ${r?.order.indexOf('ping')}, last run at ${lastRun}`);
  if (sanitized(s.proc.pid)) {
    // ASan keeps what is freed in its quarantine: RSS then counts every
    // allocation made, not what is held.
    skip('stdio: meanwhile the server\'s peak RSS grows by less than 32 MiB', 'a sanitized build (its RSS counts freed memory)');
  } else {
    point('stdio: meanwhile the server\'s peak RSS grows by less than 32 MiB',
      peak - before < 32 * 1024 ? null : `VmHWM ${before} kB -> ${peak} kB`);
  }
  await s.close();
}

export async function queueCases(point, skip) {
  await pingDuringValidation(point);
  await skipValidationOffLoop(point);
  await pingDuringFork(point, skip);
  await validatorKilled(point);
  await pingDuringChecker(point);
  await pingDuringCompatValidate(point);
  await gradeThenPing(point);
  await cancelMidGrade(point);
  await pingDuringSession(point, skip);
  await sessionsAtOnce(point);
  await mixedLines(point);
  await flood(point, skip);
}
