// SPDX-License-Identifier: Apache-2.0
// ibm.test.mjs - the python sandbox server's contract (IBM ContextForge's
// python_sandbox_server, whose tool names pyward carries) through the
// official MCP TypeScript SDK client, which checks every structuredContent
// against the tool's outputSchema: each example of that server's
// documentation with its exact fields, its environment variables, and
// pyward's own fields next to them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const PYWARD = process.env.PYWARD ?? './pyward';
const CONTAINER_LAYERS = ['user_namespace', 'pid_namespace', 'mount_namespace', 'network_namespace'];

// A client on `pyward serve` with ENV added to a copy of ours, without
// any SANDBOX_* or PYWARD_* variable the caller's environment may carry.
async function connect(env = {}, args = []) {
  const base = Object.fromEntries(Object.entries(process.env)
    .filter(([k]) => !/^(SANDBOX|PYWARD)_/.test(k) || k === 'PYWARD_RULES_DIR'));
  const transport = new StdioClientTransport({
    command: PYWARD, args: ['serve', ...args], env: { ...base, ...env }, stderr: 'pipe',
  });
  const stderr = [];
  transport.stderr?.on('data', (d) => stderr.push(d));
  const client = new Client({ name: 'pyward-ibm-tests', version: '0.0.0' });
  await client.connect(transport);
  await client.listTools(); // caches the output schemas the SDK checks
  client.stderrText = () => Buffer.concat(stderr).toString();
  return client;
}

let plain;
let science;
let info;
before(async () => {
  plain = await connect();
  science = await connect({ SANDBOX_ENABLE_DATA_SCIENCE: 'true' });
  info = (await plain.callTool({ name: 'get_sandbox_info', arguments: {} })).structuredContent;
});
after(async () => {
  await plain?.close();
  await science?.close();
});

const needSandbox = (t) => {
  if (!info.sandbox_available) {
    t.skip(`sandbox unavailable: ${info.sandbox_error}`);
    return true;
  }
  return false;
};

const execute = (client, args) => client.callTool({ name: 'execute_code', arguments: args });

// The documented fields of a successful run, exactly, and pyward's own.
function assertRun(r, want) {
  const sc = r.structuredContent;
  assert.equal(r.isError, false, JSON.stringify(sc));
  assert.equal(sc.success, true);
  assert.equal(typeof sc.execution_id, 'string');
  assert.ok(sc.execution_id.length > 0);
  assert.equal(typeof sc.execution_time, 'number');
  assert.ok(sc.execution_time >= 0 && sc.execution_time < 30);
  assert.deepEqual(sc.result, want.result);
  assert.equal(sc.stdout, want.stdout);
  assert.equal(sc.stderr, '');
  assert.deepEqual(sc.variables, want.variables);
  assert.equal(sc.error, null);
  assert.equal(sc.status, 'ok');
  assert.deepEqual(Object.keys(sc.variable_details), want.variables);
}

test('basic execution: result = 2 + 2 gives result 4 and variables ["result"]', async (t) => {
  if (needSandbox(t)) return;
  const r = await execute(plain, {
    code: "result = 2 + 2\nprint(f'The answer is: {result}')", timeout: 10, capture_output: true,
  });
  assertRun(r, { result: 4, stdout: 'The answer is: 4\n', variables: ['result'] });
  const sc = r.structuredContent;
  assert.equal(sc.result_repr, '4');
  assert.deepEqual(sc.variable_details, { result: { type: 'int', repr: '4' } });
  assert.equal(sc.isolation.use_container, false);
  assert.match(r.content[0].text, /^The answer is: 4\nResult: 4\n$/);
});

test('data analysis with allowed_imports ["math"]', async (t) => {
  if (needSandbox(t)) return;
  const r = await execute(plain, {
    code: "import math\ndata = [1, 2, 3, 4, 5]\nresult = sum(data) / len(data)\nprint(f'Average: {result}')",
    allowed_imports: ['math'], timeout: 15,
  });
  assertRun(r, { result: 3, stdout: 'Average: 3.0\n', variables: ['data', 'result'] });
  assert.equal(r.structuredContent.result_repr, '3.0');
});

test("validate_code: import os; os.system('ls') is refused with string errors", async () => {
  const r = await plain.callTool({ name: 'validate_code', arguments: { code: "import os; os.system('ls')" } });
  const sc = r.structuredContent;
  assert.equal(r.isError, true);
  assert.equal(sc.validation.valid, false);
  assert.deepEqual(sc.validation.errors, [
    "Line 1: module 'os' cannot be imported here: no profile of this sandbox provides it; use a module " +
      "of the selected profiles (see get_sandbox_info or 'pyward rules PW101') (PW101)",
  ]);
  assert.match(sc.validation.message, /^Code contains restricted operations: 1 problem; line 1: /);
  assert.deepEqual(sc.analysis, {
    line_count: 1, character_count: 26, estimated_complexity: 'low',
    node_count: sc.analysis.node_count, max_depth: sc.analysis.max_depth, cyclomatic_complexity: 1,
  });
  assert.ok(sc.recommendations.length > 0 && sc.recommendations.every((s) => typeof s === 'string'));
  assert.deepEqual(sc.validation.findings.map((f) => [f.code, f.rule, f.line, f.column]),
    [['PW101', 'import-not-allowed', 1, 8]]);
  assert.equal(r.content[0].text, `Code is not valid:\n${sc.validation.errors[0]}`);
  // The README's variant: two lines.
  const two = await plain.callTool({ name: 'validate_code', arguments: { code: "import os\nos.system('rm -rf /')" } });
  assert.equal(two.structuredContent.analysis.line_count, 2);
  assert.equal(two.structuredContent.analysis.character_count, 31);
  // Valid code: no errors, the contract's message.
  const ok = await plain.callTool({ name: 'validate_code', arguments: { code: 'print(1)\n' } });
  assert.deepEqual(ok.structuredContent.validation,
    { valid: true, errors: [], findings: [], message: 'Code passed validation' });
  assert.equal(ok.content[0].text, 'Code passed validation.');
});

test('estimated_complexity is low, medium or high, the McCabe figure next to it', async () => {
  const level = async (code) => (await plain.callTool({ name: 'validate_code', arguments: { code } }))
    .structuredContent.analysis;
  const branches = (n) => Array.from({ length: n }, (_, i) => `if x == ${i}:\n    y = ${i}\n`).join('');
  assert.deepEqual(await level('x = 1\n').then((a) => [a.estimated_complexity, a.cyclomatic_complexity]), ['low', 1]);
  assert.deepEqual(await level('x = 1\n' + branches(7)).then((a) => [a.estimated_complexity, a.cyclomatic_complexity]), ['medium', 8]);
  assert.deepEqual(await level('x = 1\n' + branches(12)).then((a) => [a.estimated_complexity, a.cyclomatic_complexity]), ['high', 13]);
});

test('get_sandbox_info: security_profiles, resource_limits, container_mode', async () => {
  const r = await plain.callTool({ name: 'get_sandbox_info', arguments: {} });
  const sc = r.structuredContent;
  assert.equal(r.isError, false);
  assert.equal(sc.success, true);
  // The python sandbox server's four profiles first, then pyward's own.
  assert.deepEqual(Object.keys(sc.security_profiles), ['basic', 'data_science', 'network', 'filesystem', 'jobe']);
  assert.deepEqual(Object.values(sc.security_profiles).map((p) => p.enabled), [true, false, false, false, false]);
  assert.ok(sc.security_profiles.basic.modules.includes('math'));
  assert.ok(sc.security_profiles.basic.modules.includes('json'));
  assert.ok(!sc.security_profiles.basic.modules.includes('os'));
  assert.ok(sc.security_profiles.filesystem.modules.includes('pathlib'));
  assert.deepEqual(sc.resource_limits, { timeout: 30, max_output_size: 1048576, memory_limit: '256m' });
  const namespaces = CONTAINER_LAYERS.every((l) => sc.isolation[l]?.active === true);
  assert.deepEqual(sc.container_mode, {
    available: namespaces && sc.sandbox_available, enabled: false, image: null, image_used: false,
  });
  assert.deepEqual(sc.allowed_imports, { only: null, added: null });
  const s = (await science.callTool({ name: 'get_sandbox_info', arguments: {} })).structuredContent;
  assert.deepEqual(Object.values(s.security_profiles).map((p) => p.enabled), [true, true, false, false, false]);
});

test('container mode with numpy and memory_limit "256m" (data_science enabled)', async (t) => {
  if (needSandbox(t)) return;
  const r = await execute(science, {
    code: 'import numpy as np\ndata = np.array([1, 2, 3, 4, 5])\nresult = np.mean(data)',
    use_container: true, memory_limit: '256m', timeout: 30,
  });
  if (!info.container_mode.available) {
    // Never silently weaker than asked: refused, saying why.
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^execute_code: not run: use_container: true asks for container-grade isolation/);
    return;
  }
  assertRun(r, { result: 3, stdout: '', variables: ['data', 'result'] });
  const sc = r.structuredContent;
  assert.equal(sc.result_repr, '3.0');
  assert.equal(sc.variable_details.result.type, 'float64');
  assert.equal(sc.isolation.use_container, true);
  assert.equal(sc.isolation.container_equivalent, true);
  for (const l of [...CONTAINER_LAYERS, 'seccomp']) assert.ok(sc.isolation.layers.includes(l), l);
  // Without data_science, numpy is a validation error naming the profile.
  const no = await execute(plain, { code: 'import numpy as np\nresult = np.mean([1])', use_container: true });
  assert.equal(no.isError, true);
  assert.equal(no.structuredContent.status, 'rejected');
  assert.match(no.structuredContent.error, /^ValidationError: .*needs the 'data_science' profile/);
});

const USE_CASES = [
  ['fibonacci', `
def fibonacci(n):
    if n <= 1:
        return n
    return fibonacci(n-1) + fibonacci(n-2)

result = [fibonacci(i) for i in range(10)]
print("Fibonacci sequence:", result)
`, {
    result: [0, 1, 1, 2, 3, 5, 8, 13, 21, 34],
    stdout: 'Fibonacci sequence: [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]\n',
    variables: ['fibonacci', 'result'],
  }],
  ['statistics', `
import statistics
data = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
mean = statistics.mean(data)
median = statistics.median(data)
stdev = statistics.stdev(data)

result = {
    'mean': mean,
    'median': median,
    'std_dev': stdev
}
print(f"Statistics: {result}")
`, {
    result: { mean: 5.5, median: 5.5, std_dev: 3.0276503540974917 },
    stdout: "Statistics: {'mean': 5.5, 'median': 5.5, 'std_dev': 3.0276503540974917}\n",
    variables: ['data', 'mean', 'median', 'stdev', 'result'],
  }],
  ['bubble sort', `
def bubble_sort(arr):
    n = len(arr)
    for i in range(n):
        for j in range(0, n-i-1):
            if arr[j] > arr[j+1]:
                arr[j], arr[j+1] = arr[j+1], arr[j]
    return arr

test_data = [64, 34, 25, 12, 22, 11, 90]
result = bubble_sort(test_data.copy())
print(f"Sorted: {result}")
`, {
    result: [11, 12, 22, 25, 34, 64, 90],
    stdout: 'Sorted: [11, 12, 22, 25, 34, 64, 90]\n',
    variables: ['bubble_sort', 'test_data', 'result'],
  }],
  ['Leibniz pi', `
import math

def calculate_pi_leibniz(terms):
    pi_approx = 0
    for i in range(terms):
        pi_approx += ((-1) ** i) / (2 * i + 1)
    return pi_approx * 4

result = calculate_pi_leibniz(1000)
print(f"Pi approximation: {result}")
print(f"Difference from math.pi: {abs(result - math.pi)}")
`, {
    result: 3.140592653839794,
    stdout: 'Pi approximation: 3.140592653839794\nDifference from math.pi: 0.000999999749998981\n',
    variables: ['calculate_pi_leibniz', 'result'],
  }],
];

for (const [name, code, want] of USE_CASES) {
  test(`use case: ${name}`, async (t) => {
    if (needSandbox(t)) return;
    assertRun(await execute(plain, { code }), want);
  });
}

test('advanced features: validate then execute, batch execution, container mode with custom limits', async (t) => {
  if (needSandbox(t)) return;
  const v = await plain.callTool({ name: 'validate_code', arguments: { code: "import os; os.system('ls')" } });
  assert.equal(v.structuredContent.validation.valid, false);
  assertRun(await execute(plain, { code: "print('Safe code execution')" }),
    { result: null, stdout: 'Safe code execution\n', variables: [] });
  const batch = [
    ["print('Hello, World!')", { result: null, stdout: 'Hello, World!\n', variables: [] }],
    ['result = sum(range(10))', { result: 45, stdout: '', variables: ['result'] }],
    ['import math; print(math.pi)', { result: null, stdout: '3.141592653589793\n', variables: [] }],
  ];
  for (const [code, want] of batch) {
    assertRun(await execute(plain, { code, timeout: 5 }), want);
  }
  const big = await execute(science, {
    code: 'import numpy as np; data = np.random.rand(1000, 1000)', use_container: true, memory_limit: '512m', timeout: 60,
  });
  if (!info.container_mode.available) {
    assert.equal(big.isError, true);
    return;
  }
  assertRun(big, { result: null, stdout: '', variables: ['data'] });
  assert.equal(big.structuredContent.variable_details.data.type, 'ndarray');
});

test('result: the global "result" first, else a final expression; no JSON form gives the repr', async (t) => {
  if (needSandbox(t)) return;
  const value = async (code) => (await execute(plain, { code })).structuredContent;
  assert.equal((await value('x = 6\nx * 7')).result, 42);
  assert.equal((await value('result = "kept"\n1 + 1')).result, 'kept');
  assert.deepEqual((await value('(1, [2.5, None], {"k": True})')).result, [1, [2.5, null], { k: true }]);
  assert.deepEqual((await value('{1: "a"}')).result, { 1: 'a' });
  const set = await value('result = {3}');
  assert.equal(set.result, '{3}');
  assert.equal(set.result_repr, '{3}');
  assert.equal((await value("float('nan')")).result, 'nan');
  assert.equal((await value('2 ** 70')).result, '1180591620717411303424');
  const obj = await value('class P:\n    def __repr__(self):\n        return "P()"\nresult = P()');
  assert.equal(obj.result, 'P()');
  assert.deepEqual(obj.variables, ['P', 'result']);
  assert.equal((await value('print("no value")')).result, null);
});

test('failure: error is "Type: message", traceback a string, details kept', async (t) => {
  if (needSandbox(t)) return;
  const r = await execute(plain, { code: 'def f():\n    return 1 / 0\nf()\n' });
  const sc = r.structuredContent;
  assert.equal(r.isError, true);
  assert.equal(sc.success, false);
  assert.equal(sc.error, 'ZeroDivisionError: division by zero');
  assert.match(sc.traceback, /^Traceback \(most recent call last\):\n[^]*ZeroDivisionError: division by zero\n$/);
  assert.equal(sc.error_details.type, 'ZeroDivisionError');
  assert.equal(sc.error_details.line, 2);
  assert.deepEqual(sc.variables, ['f']);
  const slow = await execute(plain, { code: 'while True:\n    pass\n', timeout: 1 });
  assert.equal(slow.structuredContent.status, 'timeout');
  assert.equal(slow.structuredContent.error, 'SandboxError: time limit of 1 s exceeded');
});

test('capture_output false: stdout and stderr come back empty', async (t) => {
  if (needSandbox(t)) return;
  const r = await execute(plain, { code: 'print("out")\nresult = 1\nprint(1 / 0)', capture_output: false });
  assert.equal(r.structuredContent.stdout, '');
  assert.equal(r.structuredContent.stderr, '');
  assert.equal(r.structuredContent.error, 'ZeroDivisionError: division by zero');
  assert.deepEqual(r.structuredContent.variables, ['result']);
  const on = await execute(plain, { code: 'print("out")', capture_output: true });
  assert.equal(on.structuredContent.stdout, 'out\n');
});

test('bad input: a memory_limit that is not a size says which forms are accepted', async () => {
  const r = await execute(plain, { code: 'pass', memory_limit: 'plenty' });
  assert.equal(r.isError, true);
  assert.equal(r.content[0].text, 'execute_code: invalid arguments: \'memory_limit\' "plenty" is not a size: give a ' +
    'number of bytes, or a number followed by k, m or g ("512k", "256m", "1g")');
  const u = await execute(plain, { code: 'pass', use_container: 'yes' });
  assert.match(u.content[0].text, /'use_container' must be true or false, not a string/);
});

test('environment: every SANDBOX_* variable shows in get_sandbox_info', async (t) => {
  const c = await connect({
    SANDBOX_TIMEOUT: '12', SANDBOX_MAX_OUTPUT_SIZE: '65536', SANDBOX_ENABLE_NETWORK: 'true',
    SANDBOX_ENABLE_FILESYSTEM: 'true', SANDBOX_ENABLE_DATA_SCIENCE: 'false', SANDBOX_MAX_TIMEOUT: '60',
    SANDBOX_DEFAULT_MEMORY_LIMIT: '128m', SANDBOX_ENABLE_CONTAINER_MODE: 'false',
    SANDBOX_CONTAINER_IMAGE: 'python-sandbox:latest',
  });
  try {
    const sc = (await c.callTool({ name: 'get_sandbox_info', arguments: {} })).structuredContent;
    assert.deepEqual(sc.resource_limits, { timeout: 12, max_output_size: 65536, memory_limit: '128m' });
    assert.deepEqual(sc.limits.timeout, { default: 12, max: 60 });
    assert.equal(sc.limits.memory_bytes.default, 128 << 20);
    assert.deepEqual(Object.values(sc.security_profiles).map((p) => p.enabled), [true, false, true, true, false]);
    assert.deepEqual(sc.container_mode, {
      available: info.container_mode.available, enabled: false, image: 'python-sandbox:latest', image_used: false,
    });
    const over = await execute(c, { code: 'pass', timeout: 61 });
    assert.equal(over.isError, true);
    assert.match(over.content[0].text, /at most 60 s, the maximum of this server; leave it out for the default of 12 s/);
    // The image is said once on stderr.
    const said = c.stderrText().match(/SANDBOX_CONTAINER_IMAGE=python-sandbox:latest: pyward runs no container image/g);
    assert.equal(said?.length, 1, c.stderrText());
  } finally {
    await c.close();
  }
  const d = await connect({ SANDBOX_DEFAULT_TIMEOUT: '20', SANDBOX_ENABLE_CONTAINER_MODE: 'true' });
  try {
    const sc = (await d.callTool({ name: 'get_sandbox_info', arguments: {} })).structuredContent;
    assert.equal(sc.resource_limits.timeout, 20);
    assert.equal(sc.container_mode.enabled, true);
    if (!needSandbox(t)) {
      const r = await execute(d, { code: 'result = 1' });
      if (sc.container_mode.available) {
        assert.equal(r.structuredContent.result, 1);
      } else {
        assert.match(r.content[0].text, /this server's container mode asks for container-grade isolation/);
      }
    }
  } finally {
    await d.close();
  }
});

test('environment: SANDBOX_ALLOWED_IMPORTS replaces the import list', async (t) => {
  const c = await connect({ SANDBOX_ALLOWED_IMPORTS: 'json,configparser' });
  try {
    const sc = (await c.callTool({ name: 'get_sandbox_info', arguments: {} })).structuredContent;
    assert.deepEqual(sc.allowed_imports, { only: ['json', 'configparser'], added: null });
    assert.deepEqual(sc.security_profiles.basic.modules, ['json']);
    const math = await execute(c, { code: 'import math\n' });
    assert.equal(math.structuredContent.status, 'rejected');
    assert.match(math.structuredContent.validation.errors[0],
      /^Line 1: module 'math' cannot be imported here: json, configparser are the only modules this call allows/);
    if (needSandbox(t)) return;
    const ok = await execute(c, {
      code: 'import json, configparser\nc = configparser.ConfigParser()\nc.read_string("[a]\\nb = 1\\n")\nresult = json.loads(c["a"]["b"])',
    });
    assert.equal(ok.structuredContent.result, 1, JSON.stringify(ok.structuredContent));
    // A call's own list narrows within the operator's.
    const narrowed = await execute(c, { code: 'import configparser\n', allowed_imports: ['json', 'math'] });
    assert.match(narrowed.structuredContent.validation.errors[0], /json is the only module this call allows/);
  } finally {
    await c.close();
  }
});

test('environment: SANDBOX_ALLOWED_IMPORTS=json,math,numpy with SANDBOX_ENABLE_DATA_SCIENCE (the documented example) imports numpy', async (t) => {
  if (needSandbox(t)) return;
  const c = await connect({ SANDBOX_ALLOWED_IMPORTS: 'json,math,numpy', SANDBOX_ENABLE_DATA_SCIENCE: 'true' });
  try {
    const sc = (await c.callTool({ name: 'get_sandbox_info', arguments: {} })).structuredContent;
    if (!sc.security_profiles.data_science.modules.includes('numpy')) {
      t.skip('numpy not installed');
      return;
    }
    for (let i = 0; i < 3; i++) {
      const r = await execute(c, { code: 'import json, math\nimport numpy as np\nresult = int(np.arange(5).sum()) + math.floor(math.pi)' });
      assert.equal(r.structuredContent.status, 'ok', JSON.stringify(r.structuredContent));
      assert.equal(r.structuredContent.result, 13);
    }
    const plainRun = await execute(c, { code: 'import math\nresult = math.floor(2.5)' });
    assert.equal(plainRun.structuredContent.result, 2, JSON.stringify(plainRun.structuredContent));
    const pandas = await execute(c, { code: 'import pandas\n' });
    assert.equal(pandas.structuredContent.status, 'rejected');
  } finally {
    await c.close();
  }
});

// A server that must not start: its exit status and what it said.
function failedStart(env) {
  return new Promise((resolve) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^SANDBOX_/.test(k)));
    const p = spawn(PYWARD, ['serve'], { env: { ...base, ...env }, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code) => resolve({ code, err }));
    p.stdin.end();
  });
}

test('environment: a malformed value stops the server at start, naming the variable', async () => {
  for (const [name, value] of [['SANDBOX_MAX_TIMEOUT', 'soon'], ['SANDBOX_DEFAULT_TIMEOUT', '-3'],
    ['SANDBOX_DEFAULT_MEMORY_LIMIT', 'lots'], ['SANDBOX_ENABLE_CONTAINER_MODE', 'maybe'],
    ['SANDBOX_ENABLE_DATA_SCIENCE', 'sure'], ['SANDBOX_MAX_OUTPUT_SIZE', '1x']]) {
    const { code, err } = await failedStart({ [name]: value });
    assert.equal(code, 2, `${name}=${value}: ${err}`);
    assert.equal(err, `pyward serve: ${name}: invalid value '${value}'\n`);
  }
});
