// SPDX-License-Identifier: Apache-2.0
// everyday.test.mjs - what an agent meets in everyday programs, through the
// official MCP TypeScript SDK clients (v1 and v2, over stdio and
// Streamable HTTP): io and sys in the basic profile, open() in
// the filesystem profile, messages that say what to do (a network
// refusal, PW204, get_sandbox_info's text), a long output's head and
// tail, numbers as they are, chained tracebacks, and CORS for the origins
// --cors-origin lists.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttp, stopHttp, tokenFile } from './httpserver.mjs';

const PYWARD = process.env.PYWARD ?? './pyward';
const TOKEN = 'pyward-agent-token-' + process.pid;
const APP = 'https://app.example';

// A v1 client on `pyward serve ARGS` over stdio, with ENV added to a copy
// of ours without the SANDBOX_* and PYWARD_* variables it may carry.
async function stdio(args = [], env = {}) {
  const base = Object.fromEntries(Object.entries(process.env)
    .filter(([k]) => !/^(SANDBOX|PYWARD)_/.test(k) || k === 'PYWARD_RULES_DIR'));
  const transport = new StdioClientTransport({
    command: PYWARD, args: ['serve', ...args], env: { ...base, ...env }, stderr: 'pipe',
  });
  const c = new Client({ name: 'pyward-agent-tests', version: '0.0.0' });
  await c.connect(transport);
  await c.listTools(); // caches the output schemas the SDK checks
  return c;
}

let basic;
let science;
let files;
let info;
let scienceInfo;
before(async () => {
  basic = await stdio();
  science = await stdio(['--profiles', 'basic,data_science']);
  files = await stdio([], { SANDBOX_ENABLE_FILESYSTEM: '1' });
  info = await basic.callTool({ name: 'get_sandbox_info', arguments: {} });
  scienceInfo = (await science.callTool({ name: 'get_sandbox_info', arguments: {} })).structuredContent;
});
after(async () => {
  await basic?.close();
  await science?.close();
  await files?.close();
});

const needSandbox = (t) => {
  if (!info.structuredContent.sandbox_available) {
    t.skip(`sandbox unavailable: ${info.structuredContent.sandbox_error}`);
    return true;
  }
  return false;
};
const needPandas = (t) => {
  const ds = scienceInfo.profiles.find((p) => p.name === 'data_science');
  if (needSandbox(t)) return true;
  if (!ds?.modules.includes('pandas')) {
    t.skip('pandas not installed');
    return true;
  }
  return false;
};
const run = (c, args) => c.callTool({ name: 'execute_code', arguments: args });

test('basic: io.StringIO, io.BytesIO and the sys facade (argv, stdin, stdout, version_info, maxsize, exit)', async (t) => {
  if (needSandbox(t)) return;
  const r = await run(basic, {
    code: 'import io, sys, csv\n' +
      'rows = list(csv.reader(io.StringIO("a,b\\n1,2\\n")))\n' +
      'b = io.BytesIO(b"xy")\n' +
      'line = sys.stdin.readline().strip()\n' +
      'sys.stdout.write(f"{rows} {b.getvalue()!r} {line} {sys.version_info[:2]} {sys.maxsize > 0} {len(sys.argv)}\\n")\n' +
      'print(sys.getrecursionlimit() > 0)\n' +
      'sys.exit(3)\n',
    stdin: 'hello\n',
  });
  const sc = r.structuredContent;
  assert.equal(sc.stdout, "[['a', 'b'], ['1', '2']] b'xy' hello (3, 11) True 1\nTrue\n", JSON.stringify(sc));
  assert.equal(sc.exit_code, 3);
});

test('basic: io.open, io.FileIO, sys.modules are refused, naming what is offered and the profile for files', async (t) => {
  const v = await basic.callTool({ name: 'validate_code', arguments: { code: 'import io, sys\nio.open("x")\nsys.modules\nfrom io import FileIO\n' } });
  const errors = v.structuredContent.validation.errors.join('\n');
  assert.match(errors, /Line 2: 'io\.open' is not available with the selected profiles: .*'filesystem' profile/);
  assert.match(errors, /Line 3: 'sys\.modules' is not offered in the sandbox/);
  assert.match(errors, /Line 4: 'from io import \.\.\.' names something beyond io's in-memory streams/);
  const o = await basic.callTool({ name: 'validate_code', arguments: { code: 'open("data.csv", "w")\n' } });
  assert.match(o.structuredContent.validation.errors[0],
    /'open\(\)' is not available with the selected profiles: .*select the 'filesystem' profile.*SANDBOX_ENABLE_FILESYSTEM=1/);
});

test('filesystem: open() writes and reads a file of the workspace; io is whole; outside it is refused', async (t) => {
  if (needSandbox(t)) return;
  const r = await run(files, {
    profile: ['basic', 'filesystem'],
    code: 'import io\nwith open("data.csv", "w") as f:\n    f.write("a,b\\n1,2\\n")\n' +
      'print(open("data.csv").read().splitlines()[1])\n' +
      'with io.open("data.csv", "a") as f:\n    f.write("3,4\\n")\n' +
      'print(len(open("data.csv").readlines()))\n' +
      'try:\n    open("/etc/passwd")\nexcept PermissionError as e:\n    print("refused")\n',
  });
  assert.equal(r.structuredContent.stdout, '1,2\n3\nrefused\n', JSON.stringify(r.structuredContent));
});

test('get_sandbox_info: its text lists the profiles, their modules and the limits', async () => {
  const text = info.content[0].text;
  assert.match(text, /^pyward [^\n]*; sandbox /);
  assert.match(text, /\n- basic \(default\): [^\n]+\n  modules: math, [^\n]*\bio, sys\n/);
  assert.match(text, /\nThe network is off: the 'network' profile, which turns it on, is not enabled/);
  assert.match(text, /\nLimits: timeout \d+ s \(a call may ask up to \d+ s\), memory \d+ MiB/);
  const limits = info.structuredContent.limits;
  assert.ok(text.includes(`timeout ${limits.timeout.default} s`), text);
});

test('a long output: the text block keeps its head and its tail, saying how much was cut between', async (t) => {
  if (needSandbox(t)) return;
  const r = await run(basic, { code: 'for i in range(2000):\n    print(i, "x" * 7)\nprint("RESULT", 42)\n' });
  const text = r.content[0].text;
  const all = r.structuredContent.stdout;
  assert.ok(text.startsWith('0 xxxxxxx\n1 xxxxxxx\n'), text.slice(0, 40));
  assert.ok(text.endsWith('1999 xxxxxxx\nRESULT 42\n'), text.slice(-40));
  const m = /\n\[stdout: (\d+) bytes cut here, of (\d+); the first (\d+) and the last (\d+) are shown, all of it is in the structured result\]\n/.exec(text);
  assert.ok(m, text);
  const [cut, total, head, tail] = m.slice(1).map(Number);
  assert.equal(total, Buffer.byteLength(all));
  assert.equal(cut + head + tail, total);
  assert.ok(head <= 1000 && tail <= 3000 && head + tail > 3500, m[0]);
});

test('numbers: run times rounded to the microsecond, a result float as it is', async (t) => {
  if (needSandbox(t)) return;
  const r = await run(basic, { code: 'x = 0.1 + 0.2\nx' });
  const sc = r.structuredContent;
  assert.equal(sc.result, 0.30000000000000004);
  for (const v of [sc.execution_time, sc.cpu_time]) {
    assert.equal(Math.round(v * 1e6) / 1e6, v);
  }
});

test('a network refusal says the network is off and what turns it on', async (t) => {
  if (needPandas(t)) return;
  const r = await run(science, { code: 'import pandas as pd\npd.read_csv("https://example.com/data.csv")\n' });
  const sc = r.structuredContent;
  assert.equal(sc.status, 'error');
  // pandas imports its network client (urllib.request, whose ssl comes first) when it needs it.
  assert.match(sc.error, /^PermissionError: 'import' of '[a-z._]+' is blocked by the sandbox: the network is off for this run \(the 'network' profile turns it on: pyward run --profile network, or on a server pyward serve --profiles basic,network or SANDBOX_ENABLE_NETWORK=1/);
});

test('a chained pandas KeyError: each part starts with its Traceback line, as python3 prints it', async (t) => {
  if (needPandas(t)) return;
  const r = await run(science, { code: 'import pandas as pd\ndf = pd.DataFrame({"a": [1]})\ndf["b"]\n' });
  assert.equal(r.structuredContent.traceback,
    'Traceback (most recent call last):\nKeyError: \'b\'\n\n' +
    'The above exception was the direct cause of the following exception:\n\n' +
    'Traceback (most recent call last):\n  File "<user>", line 3, in <module>\n    df["b"]\n    ~~^^^^^\nKeyError: \'b\'\n');
});

test('display(): a DataFrame as a markdown table, a figure as an image, a value of the program\'s own class by its _repr_markdown_', async (t) => {
  if (needPandas(t)) return;
  const r = await run(science, {
    code: 'import pandas as pd\nimport matplotlib.pyplot as plt\n' +
      'df = pd.DataFrame({"city": ["Oslo", "Lima"], "temp": [3.5, 19.0]})\n' +
      'class Note:\n    def _repr_markdown_(self):\n        return "**note**"\n\n' +
      'fig, ax = plt.subplots(figsize=(2, 1), dpi=50)\nax.plot([1, 2])\n' +
      'display(df, Note(), 42)\ndisplay(fig)\n',
  });
  const sc = r.structuredContent;
  assert.equal(sc.stdout, '|   | city | temp |\n|---|---|---|\n| 0 | Oslo | 3.5 |\n| 1 | Lima | 19.0 |\n**note**\n42\n', JSON.stringify(sc));
  assert.deepEqual(sc.files.map((f) => f.name), ['figure-1.png']);
  assert.ok(r.content.some((c) => c.type === 'image' && c.mimeType === 'image/png'));
});

test('a final expression: a DataFrame as a markdown table, a class\'s _repr_markdown_ or _repr_html_, else its repr', async (t) => {
  if (needPandas(t)) return;
  const r = await run(science, { code: 'import pandas as pd\npd.DataFrame({"a": [1, 2]}, index=["x", "y"])' });
  const sc = r.structuredContent;
  assert.equal(sc.result_markdown, '|   | a |\n|---|---|\n| x | 1 |\n| y | 2 |', JSON.stringify(sc));
  assert.match(sc.result_repr, /^   a\nx  1\ny  2$/);
  assert.ok(sc.program_reported.includes('result_markdown'));
  assert.match(r.content[0].text, /^Result:\n\|   \| a \|\n\|---\|---\|\n\| x \| 1 \|\n\| y \| 2 \|\n$/);
  const own = await run(basic, { code: 'class Note:\n    def _repr_markdown_(self):\n        return "**n**"\n\nNote()' });
  assert.equal(own.structuredContent.result_markdown, '**n**');
  const html = await run(basic, { code: 'class Cell:\n    def _repr_html_(self):\n        return "<b>n</b>"\n\nCell()' });
  assert.equal(html.structuredContent.result_markdown, '<b>n</b>', JSON.stringify(html.structuredContent));
  const plain = await run(basic, { code: '[1, 2]' });
  assert.equal(plain.structuredContent.result_markdown, undefined);
  assert.equal(plain.content[0].text, 'Result: [1, 2]\n');
});

test('display() in basic prints the repr; a final expression\'s value is its repr', async (t) => {
  if (needSandbox(t)) return;
  const r = await run(basic, { code: 'display([1, "a"])\n{"k": 0.5}' });
  assert.equal(r.structuredContent.stdout, "[1, 'a']\n");
  assert.equal(r.structuredContent.result_repr, "{'k': 0.5}");
  assert.match(r.content[0].text, /\nResult: \{'k': 0\.5\}\n/);
});

// --- CORS over Streamable HTTP ------------------------------------------

let cors;
let plainHttp;
before(async () => {
  cors = await startHttp(['--auth-token-file', tokenFile([TOKEN]), '--cors-origin', APP]);
  plainHttp = await startHttp(['--auth-token-file', tokenFile([TOKEN])]);
});
after(async () => {
  if (cors) assert.equal(await stopHttp(cors.proc), 0);
  if (plainHttp) assert.equal(await stopHttp(plainHttp.proc), 0);
});

const browser = (origin = APP) => ({ requestInit: { headers: { Authorization: `Bearer ${TOKEN}`, Origin: origin } } });

test('cors: a listed origin\'s preflight is answered 204 with the CORS headers, without a token', async () => {
  const r = await fetch(cors.url, { method: 'OPTIONS', headers: {
    Origin: APP, 'Access-Control-Request-Method': 'POST',
    'Access-Control-Request-Headers': 'authorization, content-type, mcp-protocol-version, mcp-session-id' } });
  assert.equal(r.status, 204);
  assert.equal(r.headers.get('access-control-allow-origin'), APP);
  assert.match(r.headers.get('access-control-allow-methods'), /POST/);
  assert.equal(r.headers.get('access-control-allow-headers'), 'authorization, content-type, mcp-protocol-version, mcp-session-id');
  const other = await fetch(cors.url, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } });
  assert.equal(other.status, 405);
  assert.equal(other.headers.get('access-control-allow-origin'), null);
  const none = await fetch(plainHttp.url, { method: 'OPTIONS', headers: { Origin: APP } });
  assert.equal(none.status, 405);
  assert.equal(none.headers.get('access-control-allow-origin'), null);
});

for (const [name, make] of [
  ['v2', (url, opts) => [new ClientV2({ name: 'pyward-agent-v2', version: '0.0.0' }), new HttpV2(url, opts)]],
  ['v1', (url, opts) => [new Client({ name: 'pyward-agent-v1', version: '0.0.0' }), new HttpV1(url, opts)]],
]) {
  test(`cors: the ${name} client sending a listed Origin runs code; the answers carry Access-Control-Allow-Origin`, async (t) => {
    const [c, transport] = make(cors.url, browser());
    await c.connect(transport);
    try {
      const r = await c.callTool({ name: 'execute_code', arguments: { code: 'import io\nprint(io.StringIO("ok").read())' } });
      if (r.structuredContent.status !== 'rejected' || !needSandbox(t)) {
        assert.equal(r.structuredContent.stdout, 'ok\n', JSON.stringify(r.structuredContent));
      }
    } finally {
      await c.close();
    }
    const raw = await fetch(cors.url, { method: 'POST', headers: {
      Origin: APP, Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    assert.equal(raw.status, 200);
    assert.equal(raw.headers.get('access-control-allow-origin'), APP);
    assert.match(raw.headers.get('access-control-expose-headers'), /Mcp-Session-Id/);
  });

  test(`cors: the ${name} client from an origin not listed is refused (403)`, async () => {
    const [c, transport] = make(plainHttp.url, browser());
    await assert.rejects(c.connect(transport), /403|Forbidden|Origin/i);
    await c.close();
  });
}

// --- The same everyday items through the v2 client ---------------------

// The v2 client over stdio and over Streamable HTTP (plainHttp, with its
// token): io and sys in basic, PW204 naming the filesystem profile, a long
// output's head and tail, a final expression's _repr_markdown_, and
// get_sandbox_info's text.
for (const [name, connect] of [
  ['stdio', async () => {
    const c = new ClientV2({ name: 'pyward-everyday-v2', version: '0.0.0' });
    await c.connect(new StdioV2({ command: PYWARD, args: ['serve'], env: { ...process.env }, stderr: 'pipe' }));
    return c;
  }],
  ['http', async () => {
    const c = new ClientV2({ name: 'pyward-everyday-v2-http', version: '0.0.0' });
    await c.connect(new HttpV2(plainHttp.url, { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    return c;
  }],
]) {
  test(`the v2 client over ${name}: io and sys in basic, PW204's profile, a long output's head and tail, _repr_markdown_, get_sandbox_info's text`, async (t) => {
    if (needSandbox(t)) return;
    const c = await connect();
    try {
      await c.listTools();
      const io = await run(c, { code: 'import io, sys\nprint(io.StringIO("a,b").read(), sys.maxsize > 0)\n' });
      assert.equal(io.structuredContent.stdout, 'a,b True\n', JSON.stringify(io.structuredContent));
      const open = await run(c, { code: 'open("data.csv", "w")\n' });
      assert.match(open.content[0].text, /'open\(\)' is not available with the selected profiles.*select the 'filesystem' profile.*\(PW204\)/);
      assert.match(JSON.stringify(open), /filesystem/);
      const long = await run(c, { code: 'for i in range(2000):\n    print(i, "x" * 7)\nprint("RESULT", 42)\n' });
      const text = long.content[0].text;
      assert.ok(text.startsWith('0 xxxxxxx\n'), text.slice(0, 40));
      assert.match(text, /RESULT 42\n/);
      assert.match(text, /cut/);
      const md = await run(c, { code: 'class Note:\n    def _repr_markdown_(self):\n        return "**n**"\n\nNote()' });
      assert.equal(md.structuredContent.result_markdown, '**n**');
      const inf = await c.callTool({ name: 'get_sandbox_info', arguments: {} });
      assert.match(inf.content[0].text, /basic/);
      assert.ok(inf.content[0].text.split('\n').length > 3, inf.content[0].text);
    } finally {
      await c.close();
    }
  });
}
