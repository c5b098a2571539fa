// SPDX-License-Identifier: Apache-2.0
// client.test.mjs - `pyward serve` through the official MCP TypeScript SDK
// client, the way real MCP clients connect.  Run with node --test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { childrenNamed, descendants, procField } from './proc.mjs';

const PYWARD = process.env.PYWARD ?? './pyward';

async function connect(args = []) {
  const transport = new StdioClientTransport({
    command: PYWARD,
    args: ['serve', ...args],
    env: { ...process.env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'pyward-sdk-tests', version: '0.0.0' });
  client.errors = [];
  client.onerror = (e) => client.errors.push(e);
  await client.connect(transport);
  return { client, transport };
}

// A process whose seccomp filter is installed: a run in progress (the
// zygote's spare child waits unfiltered until a request reaches it).
const sandboxed = (pid) => procField(pid, 'status', 'Seccomp:') === 2;

// Resident memory in kB (0 when gone).
const rssKb = (pid) => procField(pid, 'status', 'VmRSS:') || 0;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let main;
let info;
before(async () => {
  main = await connect();
  await main.client.listTools(); // caches the output schemas the SDK checks
  const r = await main.client.callTool({ name: 'get_sandbox_info', arguments: {} });
  info = r.structuredContent;
});
after(async () => {
  await main?.client.close();
});

const needSandbox = (t) => {
  if (!info.sandbox_available || !info.validator_available) {
    t.skip(`sandbox or validator not available: ${info.sandbox_error ?? 'validator missing'}`);
    return true;
  }
  return false;
};
const needValidator = (t) => {
  if (!info.validator_available) {
    t.skip('validator not available');
    return true;
  }
  return false;
};
const run = (args, opts) => main.client.callTool({ name: 'execute_code', arguments: args }, undefined, opts);

test('initialize: server info, version and capabilities', () => {
  const v = main.client.getServerVersion();
  assert.equal(v.name, 'pyward');
  assert.match(v.version, /^\d+\.\d+/);
  const caps = main.client.getServerCapabilities();
  assert.deepEqual(caps.tools, { listChanged: false });
  assert.ok(caps.logging);
  assert.match(main.client.getInstructions(), /execute_code/);
});

test('tools/list: eleven tools with input and output schemas', async () => {
  const { tools } = await main.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ['close_session', 'create_session', 'execute_code',
    'fork_session', 'get_sandbox_info', 'grade_code', 'list_files', 'list_sessions', 'read_file', 'validate_code', 'write_file']);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object');
    assert.equal(t.outputSchema.type, 'object');
    assert.ok(t.description.length > 20);
  }
  const exec = tools.find((t) => t.name === 'execute_code');
  assert.deepEqual(exec.inputSchema.required, ['code']);
});

test('get_sandbox_info: structured content passes the SDK schema check', async () => {
  const r = await main.client.callTool({ name: 'get_sandbox_info', arguments: {} });
  assert.equal(r.isError, false);
  assert.equal(r.content[0].type, 'text');
  assert.match(r.structuredContent.python_version, /^3\./);
  assert.ok(r.structuredContent.profiles.find((p) => p.name === 'basic').modules.includes('math'));
  assert.equal(r.structuredContent.limits.timeout.max, 300);
});

test('argument errors are tool results with isError that the model reads; an unknown tool stays -32602', async () => {
  const refused = async (args, re) => {
    const r = await run(args);
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent, undefined);
    assert.equal(r.content.length, 1);
    assert.match(r.content[0].text, re);
  };
  await refused({}, /^execute_code: invalid arguments: missing required argument 'code'$/);
  await refused({ code: 'pass', timeout: 9999 }, /'timeout' is 9999 s: it must be above 0 and at most 300 s, the maximum of this server; leave it out for the default of 30 s/);
  await refused({ code: 'pass', profile: 'nope' }, /unknown profile 'nope': the profiles are .*, and this server enabled basic/);
  await refused({ code: 'pass', timeout: 'soon' }, /'timeout' must be a number of seconds, not a string/);
  await refused({ code: 'pass', memory_limit: '12 parsecs' }, /'memory_limit' "12 parsecs" is not a size: give a number of bytes, or a number followed by k, m or g/);
  await refused({ code: 'pass', use_sudo: true }, /unknown argument 'use_sudo': the arguments are code, /);
  await assert.rejects(main.client.callTool({ name: 'no_such_tool', arguments: {} }), (e) => e instanceof McpError && e.code === -32602);
});

test("allowed_imports: a module the call's own list leaves out is named as such", async (t) => {
  if (needValidator(t)) return;
  const r = await run({ code: 'import math\n', allowed_imports: ['json'] });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.status, 'rejected');
  assert.match(r.structuredContent.validation.findings[0].message,
    /^module 'math' cannot be imported here: json is the only module this call allows \(see/);
  const os = await run({ code: 'import os\n', allowed_imports: ['json'] });
  assert.match(os.structuredContent.validation.findings[0].message, /module 'os' cannot be imported here: no profile of this sandbox provides it/);
});

test('validate_code: valid code', async (t) => {
  if (needValidator(t)) return;
  const r = await main.client.callTool({ name: 'validate_code', arguments: { code: 'def f(x):\n    return x * 2\nprint(f(2))\n' } });
  assert.equal(r.isError, false);
  assert.equal(r.structuredContent.validation.valid, true);
  assert.equal(r.structuredContent.analysis.line_count, 3);
});

test('validate_code: rejected code lists the problem', async (t) => {
  if (needValidator(t)) return;
  const r = await main.client.callTool({ name: 'validate_code', arguments: { code: 'import os\nos.system("ls")\n' } });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.validation.valid, false);
  assert.ok(r.structuredContent.validation.errors.some((e) => /^Line 1: module 'os' cannot be imported here: .* \(PW101\)$/.test(e)));
  assert.ok(r.structuredContent.validation.findings.some((e) => e.line === 1 && e.code === 'PW101'));
  assert.ok(r.structuredContent.recommendations.length > 0);
});

test('execute_code: success', async (t) => {
  if (needSandbox(t)) return;
  const r = await run({ code: 'xs = [i * i for i in range(4)]\nprint(sum(xs))\nxs' });
  assert.equal(r.isError, false, JSON.stringify(r));
  assert.equal(r.structuredContent.status, 'ok');
  assert.equal(r.structuredContent.stdout, '14\n');
  assert.deepEqual(r.structuredContent.result, [0, 1, 4, 9]);
  assert.equal(r.structuredContent.result_repr, '[0, 1, 4, 9]');
  assert.match(r.content[0].text, /14/);
});

test('execute_code: failure (exception)', async (t) => {
  if (needSandbox(t)) return;
  const r = await run({ code: 'def f():\n    return 1 / 0\nprint("before")\nf()\n' });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.status, 'error');
  assert.equal(r.structuredContent.error, 'ZeroDivisionError: division by zero');
  assert.equal(r.structuredContent.error_details.type, 'ZeroDivisionError');
  assert.match(r.structuredContent.traceback, /ZeroDivisionError: division by zero\n$/);
  // The text alone is enough for a model: stdout, then the status and the
  // trimmed traceback with its line numbers.
  const text = r.content[0].text;
  assert.match(text, /^before\nStatus: error\nTraceback \(most recent call last\):\n/);
  assert.match(text, /line 4, in <module>\n +f\(\)\n.*line 2, in f\n +return 1 \/ 0\n/s);
  assert.match(text, /\nZeroDivisionError: division by zero\n$/);
});

test('execute_code: the text block holds stdout, then stderr, then the status', async (t) => {
  if (needSandbox(t)) return;
  const r = await run({ code: 'print("out")\nprint(undefined_name)\n' });
  const text = r.content[0].text;
  assert.match(text, /^out\nStatus: error\n/);
  assert.match(text, /line 2, in <module>/);
  assert.match(text, /NameError: name 'undefined_name' is not defined/);
  const flood = await run({ code: 'print("y" * 9000)' });
  assert.equal(flood.isError, false);
  assert.match(flood.content[0].text, /^y{1000}\n\[stdout: 5001 bytes cut here, of 9001; the first 1000 and the last 3000 are shown, all of it is in the structured result\]\ny{2999}\n$/);
  assert.equal(flood.structuredContent.stdout.length, 9001);
});

test('execute_code: rejection (validation)', async (t) => {
  if (needValidator(t)) return;
  const r = await run({ code: 'eval("1+1")\nx = 1\nexec("x = 2")\n' });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.status, 'rejected');
  assert.equal(r.structuredContent.validation.valid, false);
  // Every problem, each with its line, in the text a model reads.
  const lines = r.content[0].text.split('\n');
  assert.equal(lines[0], 'Rejected before running: 2 problems found');
  assert.match(lines[1], /^line 1: .*eval.* \(PW\d{3}\)$/);
  assert.match(lines[2], /^line 3: .*exec.* \(PW\d{3}\)$/);
});

test('execute_code: timeout', async (t) => {
  if (needSandbox(t)) return;
  const start = Date.now();
  const r = await run({ code: 'print("started")\nwhile True:\n    pass\n', timeout: 1 });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.status, 'timeout');
  assert.ok(Date.now() - start < 5000);
  // What the program printed before the timeout (no flush in it) comes
  // back in the structured result and in the text a model reads, then
  // the status.
  assert.equal(r.structuredContent.stdout, 'started\n');
  assert.equal(r.content[0].text,
    'started\nStatus: timeout\nSandboxError: time limit of 1 s exceeded\n');
});

test('execute_code: stdin reaches the program', async (t) => {
  if (needSandbox(t)) return;
  const r = await run({ code: 'print(input().upper())', stdin: 'shout\n' });
  assert.equal(r.structuredContent.stdout, 'SHOUT\n');
});

test('execute_code: an output flood is cut and reported', async (t) => {
  if (needSandbox(t)) return;
  const r = await run({ code: 'while True:\n    print("x" * 1000)\n', timeout: 20 });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.status, 'output_limit');
  assert.equal(r.structuredContent.stdout_truncated, true);
  assert.ok(r.structuredContent.stdout.length <= info.limits.max_output_bytes);
  assert.ok(r.structuredContent.stdout.length > 1000);
});

test('allowed_imports only narrows what the profiles allow', async (t) => {
  if (needValidator(t)) return;
  const narrowed = await run({ code: 'import math\nprint(math.pi)', allowed_imports: ['json'] });
  assert.equal(narrowed.structuredContent.status, 'rejected');
  const widened = await run({ code: 'import os', allowed_imports: ['os'] });
  assert.equal(widened.structuredContent.status, 'rejected');
});

test('8 concurrent calls get their own results', async (t) => {
  if (needSandbox(t)) return;
  const calls = [...Array(8).keys()].map((i) =>
    run({ code: `import time\ntime.sleep(0.${8 - i})\nprint(${i} * 1000 + 7)` }));
  const results = await Promise.all(calls);
  results.forEach((r, i) => {
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    assert.equal(r.structuredContent.stdout, `${i * 1000 + 7}\n`);
  });
  const ids = new Set(results.map((r) => r.structuredContent.execution_id));
  assert.equal(ids.size, 8);
});

test('progress notifications arrive while a run goes on', async (t) => {
  if (needSandbox(t)) return;
  const seen = [];
  const r = await run({ code: 'import time\ntime.sleep(1.2)\nprint("done")' },
    { onprogress: (p) => seen.push(p) });
  assert.equal(r.structuredContent.stdout, 'done\n');
  assert.ok(seen.length >= 3, `only ${seen.length} progress notifications`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress);
  assert.ok(seen.every((p) => p.total > 0));
});

test('cancellation kills the child and sends no result', async (t) => {
  if (needSandbox(t)) return;
  const server = main.transport.pid;
  const ac = new AbortController();
  // 80 MiB touched: the run's child stands out from the spares waiting,
  // which are sandboxed too.
  const p = run({ code: 'import time\nx = b"x" * (80 << 20)\ntime.sleep(30)\nprint("should never print")', timeout: 60 },
    { signal: ac.signal });
  let kids = [];
  for (let i = 0; i < 50 && kids.length === 0; i++) {
    await sleep(50);
    kids = descendants(server).filter((k) => sandboxed(k) && rssKb(k) > 60 * 1024);
  }
  assert.ok(kids.length > 0, 'the run never showed up as a child of the server');
  ac.abort('test cancels');
  await assert.rejects(p);
  let left = kids;
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await sleep(50);
    const now = new Set(descendants(server));
    left = kids.filter((k) => now.has(k));
  }
  assert.deepEqual(left, [], 'the cancelled child is still there');
  // The server goes on, and never answered the cancelled request.
  const r = await run({ code: 'print("next")' });
  assert.equal(r.structuredContent.stdout, 'next\n');
  await main.client.ping(); // what the server sent before it has been read
  assert.ok(!main.client.errors.some((e) => /unknown message ID/i.test(String(e))), String(main.client.errors));
});

test('an idle server keeps its spares ready and leaves no zombie', async (t) => {
  if (needSandbox(t)) return;
  const server = main.transport.pid;
  for (let i = 0; i < 10; i++) {
    const r = await run({ code: `print(${i})` });
    assert.equal(r.structuredContent.stdout, `${i}\n`);
  }
  const state = (pid) => {
    try {
      return /^State:\s*(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1];
    } catch {
      return '?';
    }
  };
  let kids = [];
  for (let i = 0; i < 40; i++) {
    await sleep(50);
    kids = descendants(server);
    if (!kids.some((k) => state(k) === 'Z') && kids.filter(sandboxed).length >= 2) break;
  }
  assert.deepEqual(kids.filter((k) => state(k) === 'Z'), [], 'zombies left behind');
  // The pool (2 by default) is full again: prepared spares, seccomp on.
  assert.ok(kids.filter(sandboxed).length >= 2, `spares: ${kids.filter(sandboxed)}`);
});

// Width, height and pixel rows of a PNG: every chunk walked, IDAT inflated
// (throws if the image cannot be decoded).
function decodePng(buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let off = 8;
  let ihdr = null;
  const idat = [];
  for (;;) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const body = buf.subarray(off + 8, off + 8 + len);
    assert.equal(body.length, len, `chunk ${type} cut short`);
    if (type === 'IHDR') ihdr = body;
    if (type === 'IDAT') idat.push(body);
    off += 12 + len;
    if (type === 'IEND') break;
  }
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[ihdr[9]];
  const pixels = inflateSync(Buffer.concat(idat));
  assert.equal(ihdr[8], 8, 'bit depth');
  assert.equal(pixels.length, height * (1 + width * channels));
  return { width, height };
}

// The server's zygotes: its children named pyward-zygote once no spare
// has just been forked (a spare, also the server's child, bears that name
// for the moment before it names itself pyward-run).
async function zygotesOf(pid) {
  let z = [];
  for (const until = Date.now() + 3000; Date.now() < until; await sleep(20)) {
    z = childrenNamed(pid, 'pyward-zygote');
    if (z.length <= 2) break;
  }
  return z;
}

let science;
const needScience = async (t) => {
  if (needSandbox(t)) return true;
  science ??= await connect(['--profiles', 'basic,data_science']);
  const r = await science.client.callTool({ name: 'get_sandbox_info', arguments: {} });
  const ds = r.structuredContent.profiles.find((p) => p.name === 'data_science');
  if (!ds || !['numpy', 'matplotlib'].every((m) => ds.modules.includes(m))) {
    t.skip('numpy or matplotlib not installed');
    return true;
  }
  return false;
};
after(async () => {
  await science?.client.close();
});

test('data_science: a matplotlib plot comes back as a PNG image of the right size', async (t) => {
  if (await needScience(t)) return;
  const code = [
    'import matplotlib.pyplot as plt',
    'import numpy as np',
    'x = np.linspace(0, 6.28, 200)',
    'fig, ax = plt.subplots(figsize=(4, 3), dpi=100)',
    'ax.plot(x, np.sin(x))',
    'fig.savefig("output/sine.png")',
    'print("saved")',
  ].join('\n');
  const r = await science.client.callTool({
    name: 'execute_code', arguments: { code, profile: 'data_science' } });
  assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
  const images = r.content.filter((c) => c.type === 'image');
  assert.equal(images.length, 1, JSON.stringify(r.content.map((c) => c.type)));
  assert.equal(images[0].mimeType, 'image/png');
  const png = Buffer.from(images[0].data, 'base64');
  assert.deepEqual(decodePng(png), { width: 400, height: 300 });
  const [entry] = r.structuredContent.files;
  assert.deepEqual(entry, { name: 'sine.png', mime_type: 'image/png', size: png.length, sent: true });
  assert.equal(r.structuredContent.files_omitted, 0);
  assert.match(r.content[0].text, /output\/sine\.png \(image\/png/);
});

test('data_science enabled: a program that imports only the light profiles\' modules forks from the light zygote, numpy from the full one', async (t) => {
  if (await needScience(t)) return;
  const run = async (code, profile) => {
    const r = await science.client.callTool({
      name: 'execute_code', arguments: profile ? { code, profile } : { code } });
    assert.equal(r.structuredContent.status, 'ok', JSON.stringify(r.structuredContent));
    return r.structuredContent;
  };
  // Two zygotes under the server: the full one and the light one.
  assert.equal((await zygotesOf(science.transport.pid)).length, 2);
  const full = await run('import numpy\nprint(numpy.arange(4).sum())');
  assert.equal(full.stdout, '6\n');
  // Once the light zygote is warm (a few tens of ms after start), a run
  // that imports only basic modules is forked from it: its peak memory is
  // that small zygote's, not the one that loaded numpy and matplotlib.
  let light;
  for (const until = Date.now() + 10000; Date.now() < until;) {
    light = await run('import math\nprint(math.factorial(5))');
    if (light.max_rss_kb * 3 < full.max_rss_kb) break;
    await sleep(50);
  }
  assert.equal(light.stdout, '120\n');
  assert.ok(light.max_rss_kb * 3 < full.max_rss_kb,
    `light run ${light.max_rss_kb} kB, numpy run ${full.max_rss_kb} kB`);
  // An import of numpy anywhere in the program, even in a function never
  // called, sends it to the full zygote; so does a dependency named for it.
  const inner = await run('def f():\n    import numpy\nprint(1)');
  assert.ok(inner.max_rss_kb * 3 > full.max_rss_kb, `${inner.max_rss_kb} kB`);
  // A call that names data_science alone: a program without imports runs
  // from the light zygote (with no module allowed there); one that imports
  // math is refused as before, naming the profile that has it.
  const only = await run('print(2)', 'data_science');
  assert.equal(only.stdout, '2\n');
  assert.ok(only.max_rss_kb * 3 < full.max_rss_kb, `${only.max_rss_kb} kB`);
  const refused = await science.client.callTool({ name: 'execute_code',
    arguments: { code: 'import math', profile: 'data_science' } });
  assert.equal(refused.structuredContent.status, 'rejected');
  assert.match(JSON.stringify(refused.structuredContent.validation), /basic/);
  // grade_code routes the same way: each test's memory tells where.
  const grade = async (code) => {
    const r = await science.client.callTool({ name: 'grade_code', arguments: {
      code, tests: { tests: [{ stdin: '3\n', expected_stdout: '9\n' }] } } });
    assert.equal(r.structuredContent.verdict, 'AC', JSON.stringify(r.structuredContent));
    return r.structuredContent.tests[0].memory_kb;
  };
  const gradedLight = await grade('n = int(input())\nprint(n * n)');
  const gradedFull = await grade('import numpy\nn = int(input())\nprint(n * n)');
  assert.ok(gradedLight * 3 < gradedFull, `light ${gradedLight} kB, numpy ${gradedFull} kB`);
});

test('data_science enabled: when the light zygote is gone, its runs are forked from the full one', async (t) => {
  if (await needScience(t)) return;
  // The suite's data_science server: the tests after this one import
  // numpy, pandas or matplotlib, which the full zygote serves.
  const own = science;
  const run = async (code) => (await own.client.callTool({
    name: 'execute_code', arguments: { code } })).structuredContent;
  const full = await run('import numpy\nprint(1)');
  let light;
  for (const until = Date.now() + 10000; Date.now() < until;) {
    light = await run('print(2)');
    if (light.max_rss_kb * 3 < full.max_rss_kb) break;
    await sleep(50);
  }
  assert.ok(light.max_rss_kb * 3 < full.max_rss_kb, `${light.max_rss_kb} kB`);
  const zygotes = await zygotesOf(own.transport.pid);
  assert.equal(zygotes.length, 2);
  const lightPid = zygotes.reduce((a, b) => (rssKb(a) < rssKb(b) ? a : b));
  process.kill(lightPid, 'SIGKILL');
  // Until it has died (a zombie, or reaped): its socket is closed.
  const dead = () => {
    try {
      return readFileSync(`/proc/${lightPid}/stat`, 'utf8').split(') ')[1][0] === 'Z';
    } catch {
      return true;
    }
  };
  for (const until = Date.now() + 5000; Date.now() < until && !dead();) await sleep(20);
  // The server does not spin on the dead zygote's socket: idle, it uses
  // next to no CPU (a busy loop would be 100 ticks a second).
  const ticks = () => readFileSync(`/proc/${own.transport.pid}/stat`, 'utf8')
    .split(') ')[1].split(' ').slice(11, 13).reduce((a, b) => a + Number(b), 0);
  const t0 = ticks();
  await sleep(1000);
  assert.ok(ticks() - t0 < 30, `the idle server used ${ticks() - t0} ticks in 1 s`);
  // Spares it forked before may still take a run or two; then the
  // full zygote does.  Every run succeeds.
  const sizes = [];
  for (let i = 0; i < 6; i++) {
    const after = await run('import math\nprint(math.factorial(4))');
    assert.equal(after.status, 'ok', JSON.stringify(after));
    assert.equal(after.stdout, '24\n');
    sizes.push(after.max_rss_kb);
  }
  assert.ok(sizes.at(-1) * 3 > full.max_rss_kb, `${sizes} kB`);
});

test('data_science: plt.show() and figures left open come back as images, as in a notebook', async (t) => {
  if (await needScience(t)) return;
  const code = [
    'import matplotlib.pyplot as plt',
    'plt.figure(figsize=(2, 1), dpi=100); plt.plot([1, 2, 3])',
    'plt.show()',
    'plt.figure(figsize=(3, 1), dpi=100); plt.plot([3, 2, 1])',
    'plt.show()',
    'fig = plt.figure(figsize=(4, 1), dpi=100); plt.bar([1, 2], [2, 1])',
    'print("open figures:", len(plt.get_fignums()))',
  ].join('\n');
  const r = await science.client.callTool({
    name: 'execute_code', arguments: { code, profile: 'data_science' } });
  assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
  // Each show() saved and closed what was open: one figure left at the end.
  assert.equal(r.structuredContent.stdout, 'open figures: 1\n');
  const sizes = r.content.filter((c) => c.type === 'image')
    .map((c) => decodePng(Buffer.from(c.data, 'base64')).width);
  assert.deepEqual(sizes, [200, 300, 400]);
  assert.deepEqual(r.structuredContent.files.map((f) => f.name),
    ['figure-1.png', 'figure-2.png', 'figure-3.png']);
});

test('data_science: savefig outside output/ says where files are kept', async (t) => {
  if (await needScience(t)) return;
  const code = 'import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig("plot.png")\n';
  const r = await science.client.callTool({
    name: 'execute_code', arguments: { code, profile: 'data_science' } });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.error_details.type, 'PermissionError');
  assert.match(r.structuredContent.error_details.message, /save it as 'output\/plot\.png'/);
  assert.match(r.content[0].text, /output\/plot\.png/);
  // The figure was not saved by the program: it comes back all the same.
  assert.deepEqual(r.structuredContent.files.map((f) => f.name), ['figure-1.png']);
});

test('data_science: other files come back as embedded resources', async (t) => {
  if (await needScience(t)) return;
  const code = 'import pandas as pd\n' +
    'df = pd.DataFrame({"k": ["a", "b", "a"], "v": [1, 2, 3]})\n' +
    'df.groupby("k").sum().to_csv("output/sums.csv")\n';
  const r = await science.client.callTool({
    name: 'execute_code', arguments: { code, profile: ['basic', 'data_science'] } });
  assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
  const res = r.content.filter((c) => c.type === 'resource');
  assert.equal(res.length, 1);
  assert.equal(res[0].resource.mimeType, 'text/csv');
  assert.match(res[0].resource.uri, /\/output\/sums\.csv$/);
  assert.equal(Buffer.from(res[0].resource.blob, 'base64').toString(), 'k,v\na,4\nb,2\n');
  assert.equal(r.structuredContent.files[0].size, 12);
});

test('data_science: several runs at once each do real work and get their own plot', async (t) => {
  if (await needScience(t)) return;
  const code = (i) => [
    'import numpy as np',
    'import pandas as pd',
    'from scipy import linalg',
    'import matplotlib.pyplot as plt',
    `n = ${i + 2}`,
    'a = np.eye(n) * 2.0',
    'x = linalg.solve(a, np.ones(n))',
    'df = pd.DataFrame({"g": [i % 2 for i in range(100)], "v": range(100)})',
    'fig, ax = plt.subplots(figsize=(n, 2), dpi=50)',
    'ax.plot(x)',
    'fig.savefig("output/p.png")',
    'print(x.sum(), df.groupby("g").v.sum().tolist())',
  ].join('\n');
  const results = await Promise.all([0, 1, 2, 3].map((i) =>
    science.client.callTool({ name: 'execute_code', arguments: { code: code(i), profile: 'data_science' } })));
  results.forEach((r, i) => {
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    assert.equal(r.structuredContent.stdout, `${((i + 2) / 2).toFixed(1)} [2450, 2500]\n`);
    const img = r.content.find((c) => c.type === 'image');
    assert.deepEqual(decodePng(Buffer.from(img.data, 'base64')), { width: (i + 2) * 50, height: 100 });
  });
});

test('profiles: a profile the server did not enable is refused', async (t) => {
  if (needSandbox(t)) return;
  const refused = await run({ code: 'import numpy', profile: 'data_science' });
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text,
    /profile 'data_science' is not enabled on this server, which enabled only basic: .*The server's operator can enable 'data_science' \(pyward serve --profiles basic,data_science, or SANDBOX_ENABLE_DATA_SCIENCE=1\)/);
  const r = await main.client.callTool({ name: 'get_sandbox_info', arguments: {} });
  assert.deepEqual(r.structuredContent.profiles.map((p) => p.name), ['basic']);
});

test('profiles: SANDBOX_ENABLE_DATA_SCIENCE enables data_science', async (t) => {
  if (needSandbox(t)) return;
  const transport = new StdioClientTransport({
    command: PYWARD, args: ['serve'], stderr: 'pipe',
    env: { ...process.env, SANDBOX_ENABLE_DATA_SCIENCE: '1' },
  });
  const client = new Client({ name: 'pyward-sdk-tests', version: '0.0.0' });
  await client.connect(transport);
  try {
    const r = await client.callTool({ name: 'get_sandbox_info', arguments: {} });
    const names = r.structuredContent.profiles.map((p) => p.name);
    assert.deepEqual(names, ['basic', 'data_science']);
    const ds = r.structuredContent.profiles[1];
    assert.deepEqual(ds.allows, ['output-files']);
    assert.ok(ds.modules.every((m) => typeof m === 'string'));
    assert.equal(r.structuredContent.isolation.workspace.active !== undefined, true);
  } finally {
    await client.close();
  }
});

test('logging/setLevel is accepted', async () => {
  assert.deepEqual(await main.client.setLoggingLevel('info'), {});
});

test('clean exit when the client closes', async () => {
  const c = await connect();
  const pid = c.transport.pid;
  assert.ok(pid > 0);
  const start = Date.now();
  await c.client.close();
  const took = Date.now() - start;
  assert.ok(took < 1900, `took ${took} ms: the server did not exit when stdin closed`);
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
});
