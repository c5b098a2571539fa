// SPDX-License-Identifier: Apache-2.0
// run.mjs - the raw JSON-RPC suite for `pyward serve`; prints TAP.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session, isJsonRpcLine, mismatch } from './session.mjs';
import { lineCases, oversized } from './cases.mjs';
import { queueCases } from './queue.mjs';
import { childrenNamed, procField } from '../mcp-client/proc.mjs';

let n = 0;
let failed = 0;
function ok(name) { console.log(`ok ${++n} - ${name}`); }
function notOk(name, why) {
  failed++;
  console.log(`not ok ${++n} - ${name}`);
  for (const l of String(why).split('\n')) console.log(`# ${l}`);
}
function skip(name, why) { console.log(`ok ${++n} - ${name} # SKIP ${why}`); }
function point(name, why) { (why ? notOk(name, why) : ok(name)); }

// Run one line case in S: write, collect the expected replies, ping.
async function lineCase(s, c) {
  s.write(c.send);
  for (let i = 0; i < c.expect.length; i++) {
    const got = await s.next();
    if (got === null) return `reply ${i + 1} never came`;
    const m = mismatch(got.msg, c.expect[i]);
    if (m) return `${m}\nline: ${got.raw.slice(0, 300)}`;
    if (i === 0 && c.raw && !got.raw.startsWith(c.raw)) {
      return `raw reply ${got.raw.slice(0, 200)} does not start with ${c.raw}`;
    }
    if (i === 0 && c.rawMatch && !c.rawMatch.test(got.raw)) {
      return `raw reply ${got.raw.slice(0, 600)} does not match ${c.rawMatch}`;
    }
  }
  const pingId = `after-${n}`;
  s.send({ jsonrpc: '2.0', id: pingId, method: 'ping' });
  const pong = await s.next();
  if (pong === null) return 'no answer to the ping that followed';
  if (pong.msg.id !== pingId) return `unexpected extra reply: ${pong.raw.slice(0, 300)}`;
  return null;
}

async function sharedSession() {
  const s = new Session();
  const init = await s.initialize('2025-06-18');
  point('initialize answers 2025-06-18 with tools and logging', mismatch(init, {
    result: { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: false }, logging: {} },
      serverInfo: { name: 'pyward', version: (v) => typeof v === 'string' }, instructions: (x) => typeof x === 'string' } }));
  for (const c of [...lineCases, ...oversized]) {
    point(c.name, await lineCase(s, c));
  }
  await sandboxCases(s);
  const { code } = await s.close();
  point('server exits 0 when stdin closes', code === 0 ? null : `exit ${code}\n${s.stderr.slice(-2000)}`);
  const bad = s.lines.filter((l) => !isJsonRpcLine(l));
  point(`all ${s.lines.length} stdout lines are JSON-RPC messages`, bad.length ? bad.slice(0, 3).join('\n').slice(0, 500) : null);
}

// Cases that need the validator or the sandbox; skipped until present.
async function sandboxCases(s) {
  const info = await s.request('tools/call', { name: 'get_sandbox_info', arguments: {} });
  const sc = info?.result?.structuredContent ?? {};
  const val = async (code) => (await s.request('tools/call', { name: 'validate_code', arguments: { code } }))?.result;
  const run = async (args) => (await s.request('tools/call', { name: 'execute_code', arguments: args }, 30000))?.result;
  if (!sc.validator_available) {
    for (const name of ['validate_code: valid code', 'validate_code: exec() refused', 'execute_code: rejected before running']) {
      skip(name, 'validator not available');
    }
  } else {
    const good = await val('x = 1\nprint(x)\n');
    point('validate_code: valid code', mismatch(good, { isError: false,
      content: (c) => c?.[0]?.text === 'Code passed validation.',
      structuredContent: { validation: { valid: true, errors: [] }, analysis: { line_count: 2 }, recommendations: Array.isArray } }));
    const badv = await val('exec("1")\n');
    point('validate_code: exec() refused', mismatch(badv, { isError: true,
      structuredContent: { validation: { valid: false, errors: (e) => e.length > 0 && /^Line 1: .* \(PW\d{3}\)$/.test(e[0]),
        findings: (f) => f.length > 0 && f[0].line === 1 && /^PW\d{3}$/.test(f[0].code) } } }));
    const rej = await run({ code: 'exec("print(1)")' });
    point('execute_code: rejected before running', mismatch(rej, { isError: true,
      structuredContent: { status: 'rejected', success: false, validation: { valid: false } } }));
  }
  if (!sc.sandbox_available || !sc.validator_available) {
    for (const name of ['execute_code: print goes to stdout field, not our stdout', 'execute_code: exception is an error result',
      'requests are answered while a run goes on']) {
      skip(name, 'sandbox not available');
    }
    return;
  }
  const r = await run({ code: 'print("hello")\n1 + 1' });
  point('execute_code: print goes to stdout field, not our stdout', mismatch(r, { isError: false,
    structuredContent: { status: 'ok', success: true, stdout: 'hello\n', result: 2, result_repr: '2' } }));
  s.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call',
    params: { name: 'execute_code', arguments: { code: 'import time\ntime.sleep(1)\nprint("late")' },
      _meta: { progressToken: 'slow' } } });
  // Until the server says the run has started.
  for (const until = Date.now() + 30000; Date.now() < until && !s.notes.some((m) =>
    m.params?.progressToken === 'slow' && /^running/.test(m.params.message));) {
    await new Promise((res) => setTimeout(res, 10));
  }
  s.send({ jsonrpc: '2.0', id: 'quick', method: 'ping' });
  const first = await s.next();
  const second = await s.next();
  point('requests are answered while a run goes on', first?.msg?.id === 'quick' && second?.msg?.id === 'slow' &&
    second.msg.result?.structuredContent?.stdout === 'late\n' ? null : `${first?.raw?.slice(0, 200)} / ${second?.raw?.slice(0, 200)}`);
  const e = await run({ code: 'raise ValueError("boom")' });
  point('execute_code: exception is an error result', mismatch(e, { isError: true,
    structuredContent: { status: 'error', success: false, error: 'ValueError: boom', error_details: { type: 'ValueError' } } }));
  await errorCases(run);
  await agentCases(s);
}

// What an agent builder uses: output as it happens in progress
// notifications, a session's call interrupted at its time limit with the
// session kept, stdin per call, input files for a fresh run, and a
// session's files written, listed and read.
async function agentCases(s) {
  const seen = s.notes.length;
  const r = await s.request('tools/call', { name: 'execute_code', arguments: {
    code: 'import time\nfor i in range(4):\n    print("step", i, flush=True)\n    time.sleep(0.3)\n' },
  _meta: { progressToken: 'stream' } }, 30000);
  const notes = s.notes.slice(seen).filter((m) => m.method === 'notifications/progress' &&
    m.params?.progressToken === 'stream');
  const streamed = notes.map((m) => m.params._meta?.['pyward/stdout'] ?? '').join('');
  const early = notes.findIndex((m) => (m.params._meta?.['pyward/stdout'] ?? '').includes('step 0'));
  point('progress notifications carry the new stdout as it comes; the result is unchanged',
    streamed === 'step 0\nstep 1\nstep 2\nstep 3\n' && early >= 0 && early < notes.length - 1 &&
    r?.result?.structuredContent?.stdout === streamed ? null
      : `${JSON.stringify(notes).slice(0, 600)} / ${JSON.stringify(r?.result?.structuredContent?.stdout)}`);
  const big = await s.request('tools/call', { name: 'execute_code', arguments: {
    code: 'print("x" * 200000)\nimport time\ntime.sleep(0.6)' }, _meta: { progressToken: 'big' } }, 30000);
  const bigNotes = s.notes.filter((m) => m.params?.progressToken === 'big' && m.params._meta);
  point('a streamed notification carries at most 16 KiB of output',
    bigNotes.length > 0 && bigNotes.every((m) => (m.params._meta['pyward/stdout'] ?? '').length <= 16384) &&
    big?.result?.structuredContent?.stdout?.length === 200001 ? null
      : JSON.stringify(bigNotes.map((m) => (m.params._meta['pyward/stdout'] ?? '').length)));
  // A server whose profiles write files, for the rest.
  const fs = new Session(['--profiles', 'basic,filesystem']);
  await fs.initialize('2025-06-18');
  const tool = async (name, args) => (await fs.request('tools/call', { name, arguments: args }, 30000))?.result;
  const sid = (await tool('create_session', { profile: ['basic', 'filesystem'] }))?.structuredContent?.session_id;
  await tool('execute_code', { session_id: sid, code: 'kept = 7' });
  const t = await tool('execute_code', { session_id: sid, code: 'while True:\n    kept += 0', timeout: 0.5 });
  const after = await tool('execute_code', { session_id: sid, code: 'print(kept)' });
  point('a session call at its time limit is interrupted and the session keeps its names', mismatch(t, {
    isError: true, structuredContent: { status: 'timeout', timeout_interrupt: 'interrupted', session_ended: false } }) ??
    mismatch(after, { structuredContent: { stdout: '7\n' } }));
  const inp = await tool('execute_code', { session_id: sid, code: 'print(input()[::-1])', stdin: 'abc\n' });
  point('a session call reads its own stdin', mismatch(inp, { structuredContent: { status: 'ok', stdout: 'cba\n' } }));
  const w = await tool('write_file', { session_id: sid, path: 'data.csv', content: 'a,b\n1,2\n' });
  const use = await tool('execute_code', { session_id: sid,
    code: 'import pathlib\nrows = pathlib.Path("data.csv").read_text().split()\npathlib.Path("out.txt").write_text(str(len(rows)))' });
  const l = await tool('list_files', { session_id: sid });
  const rd = await tool('read_file', { session_id: sid, path: 'out.txt' });
  const esc = await tool('read_file', { session_id: sid, path: '../../etc/passwd' });
  point('write_file, list_files, read_file on a session workspace; ".." refused',
    mismatch(w, { isError: false, structuredContent: { size: 8 } }) ??
    mismatch(use, { structuredContent: { status: 'ok' } }) ??
    mismatch(l, { structuredContent: { entries: (e) => e.some((x) => x.name === 'data.csv' && x.type === 'file') &&
      e.some((x) => x.name === 'out.txt') } }) ??
    mismatch(rd, { structuredContent: { content: '2', size: 1 } }) ??
    mismatch(esc, { isError: true, content: (c) => /leads out of the workspace/.test(c[0].text) }));
  await tool('close_session', { session_id: sid });
  const f = await tool('execute_code', { code: 'import pathlib\nprint(pathlib.Path("in.txt").read_text(), pathlib.Path("b").read_bytes())',
    profile: ['basic', 'filesystem'], files: [{ path: 'in.txt', content: 'hi' }, { path: 'b', content_base64: 'AAE=' }] });
  point('execute_code files: put in a fresh run\'s workspace', mismatch(f, { structuredContent: { status: 'ok',
    stdout: "hi b'\\x00\\x01'\n" } }));
  await fs.close();
}

// python3.11's stderr for CODE run as a file, with the file's name shown
// as "<user>" (the name of the program's code in the sandbox); null if
// there is no python3.11.
function python3Error(code) {
  const dir = mkdtempSync(join(tmpdir(), 'pyward-mcp-'));
  const file = join(dir, 'p.py');
  writeFileSync(file, code);
  const p = spawnSync(process.env.FAITHFUL_PYTHON ?? '/usr/bin/python3.11', [file], { input: '', encoding: 'utf-8' });
  rmSync(dir, { recursive: true, force: true });
  return p.error ? null : p.stderr.split(`File "${file}"`).join('File "<user>"');
}

// execute_code's error is python3's: the traceback (the program's frames,
// carets, suggestions) and the text block that shows it.
async function errorCases(run) {
  const programs = [
    ['NameError with its suggestion', 'total = 1\nprint(totl)\n'],
    ['carets under the failing operation', 'def ratio(a, b):\n    return a / b + 1\n\n\nratio(1, 0)\n'],
    ['recursion with the repeated line', 'def f(n):\n    return f(n + 1)\n\n\nf(0)\n'],
    ['a syntax error run as python3 shows it', 'x = 3\nif x > 2\n    print(x)\n'],
    ['an IndentationError by name', 'if True:\nprint(1)\n'],
    ['a missing module as ModuleNotFoundError', 'print("start")\nimport mathh\n'],
    ['StopIteration without a colon', 'next(iter([]))\n'],
  ];
  for (const [what, code] of programs) {
    const name = `execute_code: ${what}, as python3`;
    const want = python3Error(code);
    if (want === null) {
      skip(name, 'no python3.11');
      continue;
    }
    const r = await run({ code });
    const tb = r?.structuredContent?.traceback;
    const text = r?.content?.[0]?.text ?? '';
    point(name, r?.structuredContent?.status === 'error' && tb === want && text.includes(want) ? null
      : `status ${r?.structuredContent?.status}\nwant:\n${want}\ngot:\n${tb}\ntext:\n${text}`);
  }
}

async function versionCases() {
  for (const v of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '1999-01-01']) {
    const s = new Session();
    const r = await s.initialize(v);
    const want = v === '1999-01-01' ? '2025-11-25' : v;
    point(`protocol ${v} answered with ${want}`, mismatch(r, { result: { protocolVersion: want } }));
    await s.close();
  }
  const s = new Session();
  const pre = await s.request('tools/list');
  point('tools/list before initialize -> -32600', mismatch(pre, { error: { code: -32600, message: (m) => /initialize/.test(m) } }));
  const ping = await s.request('ping');
  point('ping before initialize is answered', mismatch(ping, { result: {} }));
  const init = await s.request('initialize', { capabilities: {} });
  point('initialize without protocolVersion -> -32602', mismatch(init, { error: { code: -32602 } }));
  await s.close();
}

async function batchCases() {
  const s = new Session();
  await s.initialize('2025-03-26');
  s.write(JSON.stringify([
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    42,
    { jsonrpc: '2.0', id: 'two', method: 'tools/call', params: { name: 'get_sandbox_info', arguments: {} } },
    { jsonrpc: '2.0', id: 3, method: 'nope' },
  ]));
  const got = await s.next();
  const arr = got?.msg;
  point('batch in 2025-03-26: one array, notifications unanswered', Array.isArray(arr) && arr.length === 4 &&
    arr.some((m) => m.id === 1 && m.result) && arr.some((m) => m.id === 'two' && m.result?.structuredContent) &&
    arr.some((m) => m.id === null && m.error?.code === -32600) && arr.some((m) => m.id === 3 && m.error?.code === -32601)
    ? null : `got ${got?.raw?.slice(0, 500)}`);
  s.write('[]');
  const empty = await s.next();
  point('empty batch -> -32600', mismatch(empty?.msg, { id: null, error: { code: -32600 } }));
  s.write(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }]));
  const pong = await s.request('ping');
  point('batch of notifications only: no answer', mismatch(pong, { result: {} }) ?? (s.stray ? 'extra reply' : null));
  await s.close();
}

async function infoWith(args, env) {
  const s = new Session(args, env);
  await s.initialize();
  const r = await s.request('tools/call', { name: 'get_sandbox_info', arguments: {} });
  await s.close();
  return r?.result?.structuredContent;
}

async function configCases() {
  const names = (i) => (i?.profiles ?? []).map((p) => p.name).join(',');
  let i = await infoWith(['--profiles', 'basic,network'], {});
  point('--profiles basic,network enables network', names(i) === 'basic,network' ? null : names(i));
  i = await infoWith([], { SANDBOX_ENABLE_NETWORK: '1', SANDBOX_ENABLE_FILESYSTEM: 'true' });
  point('SANDBOX_ENABLE_* enable profiles', names(i) === 'basic,network,filesystem' ? null : names(i));
  i = await infoWith(['--profiles', 'basic'], { SANDBOX_ENABLE_NETWORK: '1' });
  point('--profiles overrides SANDBOX_ENABLE_*', names(i) === 'basic' ? null : names(i));
  i = await infoWith([], { SANDBOX_TIMEOUT: '12', PYWARD_MAX_TIMEOUT: '60', SANDBOX_MAX_OUTPUT_SIZE: '64k' });
  point('SANDBOX_TIMEOUT, PYWARD_MAX_TIMEOUT, SANDBOX_MAX_OUTPUT_SIZE', mismatch(i, { limits: { timeout: { default: 12, max: 60 }, max_output_bytes: 65536 } }));
  i = await infoWith(['--timeout', '5', '--memory', '256m', '--max-concurrency', '3'], { PYWARD_TIMEOUT: '12', SANDBOX_DEFAULT_MEMORY_LIMIT: '1g' });
  point('flags override the environment', mismatch(i, { limits: { timeout: { default: 5 }, memory_bytes: { default: 256 << 20 }, max_concurrency: 3 } }));
  // One set of defaults: the server's are rules/seccomp.json's "defaults",
  // the file every command takes them from (a changed copy shows it).
  const rulesDir = process.env.PYWARD_RULES_DIR;
  const seccomp = JSON.parse(readFileSync(join(rulesDir, 'seccomp.json'), 'utf-8'));
  const want = (d) => ({ limits: { timeout: { default: d.timeout }, memory_bytes: { default: d.memory },
    max_output_bytes: d.max_output } });
  i = await infoWith([], {});
  point('the default limits are seccomp.json\'s', mismatch(i, want(seccomp.defaults)));
  const copy = mkdtempSync(join(tmpdir(), 'pyward-rules-'));
  cpSync(rulesDir, copy, { recursive: true });
  const changed = { timeout: 17, memory: 192 << 20, max_output: 65536 };
  writeFileSync(join(copy, 'seccomp.json'), JSON.stringify({ ...seccomp, defaults: changed }));
  i = await infoWith([], { PYWARD_RULES_DIR: copy });
  point('changed seccomp.json defaults are the server\'s', mismatch(i, want(changed)));
  rmSync(copy, { recursive: true, force: true });
  // An allowed module the host does not have: validate_code says so as
  // the run fails on it (ModuleNotFoundError), and the run shows it.
  const m = new Session([], { PYWARD_ALLOWED_IMPORTS: 'pyward_no_such_module' });
  await m.initialize();
  const tool = async (name, code) => (await m.request('tools/call', { name, arguments: { code } }, 30000))?.result;
  const v = await tool('validate_code', 'import pyward_no_such_module\nfrom pyward_no_such_module import x\n');
  point('validate_code: an allowed module not installed is a finding', mismatch(v, { isError: true,
    structuredContent: { validation: { findings: (e) => e.length === 2 && e[0].code === 'PW108' && e[1].code === 'PW109' &&
      /^No module named 'pyward_no_such_module'/.test(e[0].message),
    errors: (e) => e.length === 2 && /^Line 1: No module named 'pyward_no_such_module'/.test(e[0]) } } }));
  const x = await tool('execute_code', 'print("start")\nimport pyward_no_such_module\n');
  point('execute_code: it fails as python3 does', mismatch(x, { isError: true, structuredContent: { status: 'error',
    stdout: 'start\n', error: "ModuleNotFoundError: No module named 'pyward_no_such_module'",
    error_details: { type: 'ModuleNotFoundError', message: "No module named 'pyward_no_such_module'", line: 2 } } }));
  await m.close();
  const s = new Session(['--max-timeout', '20']);
  await s.initialize();
  const r = await s.request('tools/call', { name: 'execute_code', arguments: { code: 'pass', timeout: 25 } });
  i = await infoWith(['--rules', 'restricted'], {});
  point('--rules restricted is served', mismatch(i, { rules: 'restricted', validator_available: true }));
  point('--max-timeout caps what a client may ask', mismatch(r, { result: { isError: true, content: (c) => /at most 20 s/.test(c[0].text) } }));
  await s.close();
  for (const [args, env, what] of [[['--bogus'], {}, 'unknown flag'], [['--timeout', 'x'], {}, 'bad --timeout'],
    [[], { SANDBOX_TIMEOUT: 'soon' }, 'bad SANDBOX_TIMEOUT'], [['--profiles', 'nope'], {}, 'unknown profile'],
    [['--timeout', '50', '--max-timeout', '10'], {}, 'timeout above max'],
    [['--rules', '/nonexistent-rules-dir'], {}, 'a rules dir that does not load']]) {
    const b = new Session(args, env);
    const { code } = await b.close();
    point(`${what} is a usage error (exit 2)`, code === 2 && /pyward/.test(b.stderr) ? null : `exit ${code}: ${b.stderr}`);
  }
}

// fd 1 of the server is stderr; the protocol lives on a private CLOEXEC
// fd, so prints from Python or a library cannot reach the client.
async function stdoutCases() {
  const s = new Session();
  await s.initialize();
  const pid = s.proc.pid;
  const link = (fd) => readlinkSync(`/proc/${pid}/fd/${fd}`);
  let why = null;
  try {
    // The channel this test reads the replies from: a pipe shares its
    // inode with the server's end; a socketpair (libuv's usual choice)
    // does not.  The server's own sockets (each run's result channel, a
    // socketpair) cannot be told apart from it here, so with sockets every
    // candidate above fd 2 other than stdin and stderr must be CLOEXEC.
    const ours = readlinkSync(`/proc/self/fd/${s.proc.stdout._handle.fd}`);
    const isProto = ours.startsWith('socket:')
      ? (fd) => link(fd).startsWith('socket:') && link(fd) !== link(0) && link(fd) !== link(2)
      : (fd) => link(fd) === ours;
    const cloexec = (fd) => (parseInt(/flags:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))[1], 8) & 0o2000000) !== 0;
    const candidates = readdirSync(`/proc/${pid}/fd`).map(Number)
      .filter((fd) => fd > 2 && isProto(fd));
    const protoFds = candidates.filter(cloexec);
    const expected = ours.startsWith('socket:') ? candidates.length : 1;
    if (link(1) !== link(2)) why = `fd 1 is ${link(1)}, fd 2 is ${link(2)}`;
    else if (protoFds.length === 0 || protoFds.length !== expected) why = `expected private CLOEXEC protocol fds above 2, found ${protoFds} of ${candidates}`;
  } catch (e) {
    why = e.message;
  }
  point('fd 1 points at stderr; the protocol is on a private CLOEXEC fd', why);
  const r = await s.request('ping');
  point('the private fd carries the replies', mismatch(r, { result: {} }));
  await s.close();
}

// logging/setLevel: notifications/message at or above the level only.
async function loggingCases() {
  const s = new Session();
  await s.initialize();
  await s.request('ping');
  point('no log messages before logging/setLevel', s.notes.length === 0 ? null : JSON.stringify(s.notes[0]));
  await s.request('logging/setLevel', { level: 'debug' });
  await s.request('ping');
  const debug = s.notes.filter((m) => m.method === 'notifications/message');
  point('at debug, requests are logged to the client', debug.some((m) => m.params.level === 'debug' &&
    m.params.logger === 'pyward' && /ping/.test(m.params.data)) ? null : JSON.stringify(s.notes));
  await s.request('logging/setLevel', { level: 'error' });
  const seen = s.notes.length;
  await s.request('ping');
  await s.request('tools/call', { name: 'get_sandbox_info', arguments: {} });
  point('at error, debug messages stop', s.notes.length === seen ? null : JSON.stringify(s.notes.slice(seen)));
  await s.close();
}

async function lifecycleCases() {
  const s = new Session();
  await s.initialize();
  s.proc.kill('SIGTERM');
  const { code } = await s.exited;
  point('SIGTERM ends the server cleanly', code === 0 ? null : `exit ${code}`);
  const t = new Session();
  await t.initialize();
  const start = Date.now();
  const r = await t.close();
  point('closing stdin ends the server promptly', r.code === 0 && Date.now() - start < 3000 ? null : `exit ${r.code} after ${Date.now() - start} ms`);
}

// Start-up: with the data-science profile, the zygote imports numpy and
// friends after the server has started answering.  Those imports take
// hundreds of milliseconds, so get_sandbox_info sent right after
// initialize finds them under way; a run sent then waits for them, hears
// so through progress notifications, and runs once they are done.
async function warmupCases() {
  const s = new Session(['--profiles', 'basic,data_science']);
  await s.initialize();
  const info = async () => (await s.request('tools/call', { name: 'get_sandbox_info', arguments: {} }))?.result;
  const early = await info();
  const ds = (early?.structuredContent?.profiles ?? []).find((p) => p.name === 'data_science');
  if (!ds || !ds.modules.includes('numpy')) {
    skip('start-up: answered while the profiles import', 'numpy not installed');
    await s.close();
    return;
  }
  point('start-up: answered while the profiles import', mismatch(early, { isError: false,
    content: (c) => /; sandbox available \(importing the profiles' modules: runs that need them wait\)\n/.test(c?.[0]?.text) }));
  const seen = s.notes.length;
  // A run that imports none of the packages is forked from the light
  // zygote (warm in tens of milliseconds): it need not wait for them.
  // Its answer comes while get_sandbox_info still says they are under way.
  const quickReply = await s.request('tools/call', { name: 'execute_code',
    arguments: { code: 'print(6 * 7)' } }, 60000);
  const during = await info();
  point('start-up: a run without their imports is answered before the imports end',
    mismatch(quickReply?.result, { isError: false, structuredContent: { status: 'ok', stdout: '42\n' } }) ??
    mismatch(during, { content: (c) => /\(importing the profiles' modules/.test(c?.[0]?.text) }));
  // An attack queued in the same moment meets the libraries as the
  // guard adapts them after the imports, never half-prepared.
  const attack = s.nextId++;
  s.send({ jsonrpc: '2.0', id: attack, method: 'tools/call', params: { name: 'execute_code', arguments: {
    code: 'import pandas as pd\ndf = pd.DataFrame({"a": [1]})\nprint(df.eval("b = a.__class__.__mro__"))' } } });
  const run = await s.request('tools/call', { name: 'execute_code',
    arguments: { code: 'import numpy as np\nprint(np.arange(4).sum())' }, _meta: { progressToken: 'warm' } }, 60000);
  let refused = (s.stray ?? []).find((g) => g.msg.id === attack)?.msg;
  for (let got; !refused && (got = await s.next(30000)) !== null;) {
    if (got.msg.id === attack) refused = got.msg;
  }
  point('start-up: an attack sent during the imports is refused by the adapted library', mismatch(refused?.result, {
    isError: true, structuredContent: { status: 'error',
      error: (e) => /DataFrame\.eval is not allowed in the sandbox/.test(JSON.stringify(e)) } }));
  point('start-up: a run sent meanwhile waits for the imports, then runs', mismatch(run?.result, { isError: false,
    structuredContent: { status: 'ok', stdout: '6\n' } }));
  const waits = s.notes.slice(seen).filter((m) => m.method === 'notifications/progress' &&
    m.params?.progressToken === 'warm' && /^waiting [0-9.]+ s for the sandbox to import its profiles' modules$/.test(m.params.message));
  point('start-up: the waiting run gets progress notifications', waits.length > 0 ? null : JSON.stringify(s.notes.slice(seen)).slice(0, 600));

  const late = await info();
  point('start-up: once warm, get_sandbox_info says the sandbox is available', mismatch(late, { isError: false,
    content: (c) => /; sandbox available\nProfiles enabled here[^]*\n- data_science: [^]*\n  modules: numpy, [^]*\nLimits: timeout [^]*\nIsolation layers active: /.test(c?.[0]?.text),
    structuredContent: { sandbox_available: true, isolation: { rlimits: { detail: (d) => /\+[1-9][0-9]* MiB zygote base/.test(d) } } } }));
  // A client that pauses gets spares that draw a figure while they wait
  // (so a run's own figure finds the pages copied): the run sees none of
  // it, its first figure is still number 1, the only one returned.
  const fig = 'import matplotlib.pyplot as plt\nprint(plt.get_fignums())\n' +
    'f = plt.figure()\nprint(f.number, plt.get_fignums())\n';
  // (The pace is told by the last four starts; the pool of two hands
  // out the spare asked for two runs before: eight runs reach it.)
  const figs = [];
  for (let i = 0; i < 8; i++) {
    await new Promise((r) => setTimeout(r, 300));
    figs.push((await s.request('tools/call', { name: 'execute_code',
      arguments: { code: fig, profile: 'data_science' } }))?.result);
  }
  point('after pauses, a run sees no figure of the warm-up and numbers its own from 1',
    figs.map((r) => mismatch(r, { isError: false, structuredContent: { status: 'ok', stdout: '[]\n1 [1]\n',
      files: (f) => f?.length === 1 && f[0].name === 'figure-1.png' } })).find((m) => m) ?? null);
  // Those spares grew while they drew: a run's memory counts from its
  // spare's size when the request came, not from before the warm-up
  // (its address-space limit is that size plus its allowance).
  const memory = late?.structuredContent?.limits?.memory_bytes?.default;
  const cap = Math.min(64 << 20, memory / 2);
  const allowance = Math.max(memory - cap, memory / 2);
  // The spares waiting now: alive (a size) and not yet limited (a run
  // that just ended may still be there, in its exit).
  const before = new Map(childrenNamed(s.proc.pid, 'pyward-run')
    .map((pid) => [pid, procField(pid, 'status', 'VmSize:') * 1024])
    .filter(([pid, size]) => Number.isFinite(size) &&
      !Number.isFinite(procField(pid, 'limits', 'Max address space'))));
  // (The program imports matplotlib: a run of the full zygote, whose
  // spares are those that drew; one without would go to the light zygote.)
  const sleeper = s.request('tools/call', { name: 'execute_code',
    arguments: { code: 'import matplotlib\nn = sum(range(40_000_000))\nprint("slept")', profile: 'data_science' } }, 20000);
  let sleeperPid = null;
  for (let i = 0; i < 40 && sleeperPid === null; i++) {
    await new Promise((r) => setTimeout(r, 50));
    sleeperPid = [...before.keys()].find((pid) => Number.isFinite(procField(pid, 'limits', 'Max address space'))) ?? null;
  }
  const limit = sleeperPid === null ? NaN : procField(sleeperPid, 'limits', 'Max address space');
  const slept = await sleeper;
  point('a run on a warmed spare gets its whole memory allowance on top of the spare',
    sleeperPid !== null && limit >= before.get(sleeperPid) + allowance && slept?.result?.structuredContent?.stdout === 'slept\n'
      ? null : `run ${sleeperPid}: limit ${limit}, spare ${before.get(sleeperPid)} + allowance ${allowance}; ${JSON.stringify(slept?.result?.structuredContent)?.slice(0, 300)}`);
  const { code } = await s.close();
  point('start-up: the server exits 0', code === 0 ? null : `exit ${code}`);
}

try {
  await warmupCases();
  await sharedSession();
  await versionCases();
  await batchCases();
  await configCases();
  await lifecycleCases();
  await stdoutCases();
  await loggingCases();
  await queueCases(point, skip);
} catch (e) {
  notOk('driver crashed', e.stack);
}
console.log(`1..${n}`);
process.exit(0);
