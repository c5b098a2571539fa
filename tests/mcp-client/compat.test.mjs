// SPDX-License-Identifier: Apache-2.0
// compat.test.mjs - `pyward serve --compat NAME` through the official MCP
// SDK client: the tool names, argument names and result layouts of
// mcp-python-exec-sandbox, code-sandbox-mcp and BentoRun, so that a user
// switches by changing only the command in the client config.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const PYWARD = process.env.PYWARD ?? './pyward';

async function connect(compat, env = {}) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^SANDBOX_/.test(k)));
  const client = new Client({ name: 'pyward-compat-tests', version: '0.0.0' });
  await client.connect(new StdioClientTransport({
    command: PYWARD, args: ['serve', '--compat', compat], env: { ...base, ...env }, stderr: 'pipe',
  }));
  return client;
}

const clients = {};
let sandbox;
before(async () => {
  clients.exec = await connect('mcp-python-exec-sandbox');
  clients.code = await connect('code-sandbox-mcp');
  clients.bento = await connect('bentorun', { SANDBOX_ENABLE_DATA_SCIENCE: '1' });
  const env = await clients.exec.callTool({ name: 'check_environment', arguments: {} });
  sandbox = !/Sandbox status: unavailable/.test(env.content[0].text);
});
after(async () => {
  await Promise.all(Object.values(clients).map((c) => c.close()));
});

const text = (r) => {
  assert.equal(r.content[0].type, 'text');
  return r.content[0].text;
};
const needSandbox = (t) => {
  if (!sandbox) t.skip('sandbox unavailable');
  return !sandbox;
};

test('each set lists exactly its tools and argument names', async () => {
  const list = async (c) => (await c.listTools()).tools.map((t) => [t.name, Object.keys(t.inputSchema.properties), t.inputSchema.required]);
  assert.deepEqual(await list(clients.exec), [
    ['execute_python', ['script', 'dependencies', 'timeout_seconds'], ['script']],
    ['check_environment', [], undefined],
    ['validate_script', ['script', 'dependencies'], ['script']],
  ]);
  assert.deepEqual(await list(clients.code), [['run_python_code', ['code'], ['code']]]);
  assert.deepEqual(await list(clients.bento), [['execute_python', ['code', 'packages', 'env_variables'], ['code']]]);
  // pyward's own tools are not there.
  await assert.rejects(clients.code.callTool({ name: 'execute_code', arguments: { code: 'print(1)' } }), /unknown tool/);
});

test('mcp-python-exec-sandbox: execute_python sections, exit code and duration', async (t) => {
  if (needSandbox(t)) return;
  const ok = text(await clients.exec.callTool({ name: 'execute_python', arguments: { script: "print('hello world')" } }));
  assert.match(ok, /^--- stdout ---\nhello world\n\n--- exit_code: 0 ---\n--- duration_ms: \d+ ---$/);
  const bad = text(await clients.exec.callTool({ name: 'execute_python', arguments: { script: 'print("a")\n1 / 0\n' } }));
  assert.match(bad, /^--- stdout ---\na\n\n--- stderr ---\nTraceback \(most recent call last\):\n {2}File "<user>", line 2, in <module>\n {4}1 \/ 0\n {4}~~\^~~\nZeroDivisionError: division by zero\n\n--- exit_code: 1 ---\n--- duration_ms: \d+ ---$/);
  const slow = text(await clients.exec.callTool({ name: 'execute_python', arguments: { script: 'while True:\n    pass\n', timeout_seconds: 1 } }));
  assert.match(slow, /--- exit_code: -9 ---\n--- duration_ms: \d+ ---\n--- timed_out: true ---$/);
  // PEP 723: a dependency of a profile the server did not enable.
  const dep = text(await clients.exec.callTool({ name: 'execute_python', arguments: {
    script: '# /// script\n# dependencies = ["pandas>=2.2"]\n# ///\nprint(1)\n' } }));
  assert.match(dep, /^--- stderr ---\nLine 2: dependency 'pandas' needs the 'data_science' profile, which is not enabled here; .*\(PW007\)\n\n--- exit_code: -1 ---/);
});

test('mcp-python-exec-sandbox: check_environment and validate_script', async () => {
  const env = text(await clients.exec.callTool({ name: 'check_environment', arguments: {} }));
  assert.match(env, /^Python version: 3\.11\.\d+\nuv: none \(pyward installs nothing: a dependency names the profile that provides it\)\nPlatform: Linux \S+\nSandbox backend: pyward \S+\nSandbox status: .+\nDefault timeout: 30s\nMax timeout: 300s\nMax output: 1048576 bytes\nCache warming: disabled$/);
  const valid = text(await clients.exec.callTool({ name: 'validate_script', arguments: { script: 'print(1)\n' } }));
  assert.equal(valid, 'VALID\ndependencies: none');
  const meta = text(await clients.exec.callTool({ name: 'validate_script', arguments: {
    script: '# /// script\n# requires-python = ">=3.10"\n# dependencies = []\n# ///\nimport math\nprint(math.pi)\n',
  } }));
  assert.equal(meta, 'VALID\nrequires-python: >=3.10\ndependencies: none');
  const invalid = text(await clients.exec.callTool({ name: 'validate_script', arguments: { script: 'print(1)\n', dependencies: ['torch'] } }));
  assert.match(invalid, /^INVALID: Line 0: dependency 'torch' is not installed on this server/);
  const py = text(await clients.exec.callTool({ name: 'validate_script', arguments: { script: '# /// script\n# requires-python = ">=3.13"\n# ///\n' } }));
  assert.match(py, /^INVALID: Line 1: script metadata: requires-python '>=3.13' excludes Python 3\.11/);
});

test('code-sandbox-mcp: run_python_code returns the stripped stdout, or the ExecutionResult JSON', async (t) => {
  if (needSandbox(t)) return;
  const run = async (code) => text(await clients.code.callTool({ name: 'run_python_code', arguments: { code } }));
  assert.equal(await run('print("  hello  ")\nprint()\n'), 'hello');
  assert.equal(await run('x = 1\n'), '{\n  "exit_code": 1,\n  "stderr": "No output, forgot print()?",\n  "stdout": ""\n}');
  assert.equal(await run('print("é")\nint("x")\n'), '{\n  "exit_code": 1,\n  "stderr": ' + JSON.stringify(
    "Traceback (most recent call last):\n  File \"<user>\", line 2, in <module>\n    int(\"x\")\nValueError: invalid literal for int() with base 10: 'x'") +
    ',\n  "stdout": ""\n}');
  const bad = await clients.code.callTool({ name: 'run_python_code', arguments: { code: 1 } });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /'code' must be a string/);
});

test('bentorun: execute_python returns {"stdout", "stderr"} and the files of output/', async (t) => {
  if (needSandbox(t)) return;
  const r = await clients.bento.callTool({ name: 'execute_python', arguments: {
    code: [
      'import matplotlib.pyplot as plt',
      'fig, ax = plt.subplots(figsize=(2, 1), dpi=50)',
      "ax.plot([1, 2, 3])",
      "fig.savefig('output/plot.png')",
      'import pandas as pd',
      "pd.DataFrame({'a': [1], 'b': [2]}).to_csv('output/data.csv', index=False)",
      "print('saved')",
      "print('twice')",
    ].join('\n'),
    packages: ['matplotlib', 'pandas>=1.5'],
  } });
  assert.equal(r.isError, false);
  assert.equal(r.content[0].text, '{"stdout": "saved\\ntwice", "stderr": ""}');
  assert.equal(r.content.length, 3);
  const img = r.content.find((c) => c.type === 'image');
  assert.equal(img.mimeType, 'image/png');
  assert.equal(Buffer.from(img.data, 'base64').subarray(1, 4).toString(), 'PNG');
  const csv = r.content.find((c) => c.type === 'resource');
  assert.match(csv.resource.uri, /\/output\/data\.csv$/);
  assert.equal(Buffer.from(csv.resource.blob, 'base64').toString(), 'a,b\n1,2\n');
  const err = await clients.bento.callTool({ name: 'execute_python', arguments: { code: 'print("x")\nraise KeyError("k")\n' } });
  assert.equal(text(err), JSON.stringify({ stdout: 'x', stderr: "Traceback (most recent call last):\n  File \"<user>\", line 2, in <module>\n    raise KeyError(\"k\")\nKeyError: 'k'" }).replace(/","/g, '", "').replace(/":"/g, '": "'));
  const env = await clients.bento.callTool({ name: 'execute_python', arguments: { code: 'print(1)', env_variables: { TOKEN: 'x' } } });
  assert.equal(env.isError, true);
  assert.match(text(env), /'env_variables': pyward passes no environment variables to a program/);
  const pkg = await clients.bento.callTool({ name: 'execute_python', arguments: { code: 'print(1)', packages: ['torch'] } });
  assert.match(text(pkg), /^\{"stdout": "", "stderr": "Line 0: dependency 'torch' is not installed on this server/);
});

test('an unknown --compat name stops the server at start', () => {
  const p = spawnSync(PYWARD, ['serve', '--compat', 'e2b'], { input: '', encoding: 'utf8' });
  assert.equal(p.status, 2);
  assert.equal(p.stderr, "pyward serve: --compat: unknown tool set 'e2b' (one of mcp-python-exec-sandbox, code-sandbox-mcp, bentorun)\n");
});

test('a stdout of about a MiB in each layout: its text parses back to the same stdout', async (t) => {
  if (needSandbox(t)) return;
  // Every escape class, non-ASCII and astral characters, under the 1 MiB cap.
  const unit = 'ab"\\/\b\f\r\t\x01\x1f\x7f \u00e9\u20ac\u{1F600}z\n';
  const reps = Math.floor(1000000 / Buffer.byteLength(unit));
  const out = unit.repeat(reps);
  const code = `import sys\nsys.stdout.write(${JSON.stringify(unit)} * ${reps})\n`;
  const bento = text(await clients.bento.callTool({ name: 'execute_python', arguments: { code } }));
  assert.match(bento, /^\{"stdout": "[\x20-\x7f]*", "stderr": ""\}$/);
  assert.deepEqual(JSON.parse(bento), { stdout: out.slice(0, -1), stderr: '' });
  const plain = text(await clients.code.callTool({ name: 'run_python_code', arguments: { code } }));
  assert.equal(plain, out.slice(0, -1));
  const padded = text(await clients.code.callTool({ name: 'run_python_code', arguments: { code: `print()\n${code}` } }));
  assert.equal(padded, out.slice(0, -1));
  const exec = text(await clients.exec.callTool({ name: 'execute_python', arguments: { script: code } }));
  assert.ok(exec.startsWith(`--- stdout ---\n${out}\n--- exit_code: 0 ---\n`));
  // The same on stderr, from a run that failed: the JSON layouts.
  const failing = `import sys\nsys.stderr.write(${JSON.stringify(unit)} * ${reps})\nsys.exit(3)\n`;
  const bentoErr = text(await clients.bento.callTool({ name: 'execute_python', arguments: { code: failing } }));
  assert.match(bentoErr, /^\{"stdout": "", "stderr": "[\x20-\x7f]*"\}$/);
  assert.ok(JSON.parse(bentoErr).stderr.startsWith(out.slice(0, -1)));
  const codeErr = text(await clients.code.callTool({ name: 'run_python_code', arguments: { code: failing } }));
  assert.match(codeErr, /^\{\n {2}"exit_code": 1,\n {2}"stderr": "[\x20-\x7f]*",\n {2}"stdout": ""\n\}$/);
  assert.ok(JSON.parse(codeErr).stderr.startsWith(out.slice(0, -1)));
});
