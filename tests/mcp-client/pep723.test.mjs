// SPDX-License-Identifier: Apache-2.0
// pep723.test.mjs - PEP 723 inline script metadata ("# /// script") and
// execute_code's dependencies argument through the official MCP SDK
// client: a dependency names the profile that provides it (pyward
// installs nothing), requires-python is checked against Python 3.11.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const PYWARD = process.env.PYWARD ?? './pyward';
const SCIENCE = 'numpy, pandas, scipy, matplotlib, scikit-learn, statsmodels, sympy, seaborn, plotly';

async function connect(env = {}) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^SANDBOX_/.test(k)));
  const client = new Client({ name: 'pyward-pep723-tests', version: '0.0.0' });
  await client.connect(new StdioClientTransport({
    command: PYWARD, args: ['serve'], env: { ...base, ...env }, stderr: 'pipe',
  }));
  await client.listTools();
  return client;
}

let plain;
let science;
let sandbox;
let python;
before(async () => {
  plain = await connect();
  science = await connect({ SANDBOX_ENABLE_DATA_SCIENCE: '1' });
  const info = (await plain.callTool({ name: 'get_sandbox_info', arguments: {} })).structuredContent;
  sandbox = info.sandbox_available;
  python = info.python_version;
});
after(async () => {
  await plain?.close();
  await science?.close();
});

const execute = (client, args) => client.callTool({ name: 'execute_code', arguments: args });
const script = (meta, body) => `# /// script\n${meta.map((l) => `# ${l}`).join('\n')}\n# ///\n${body}`;

test('a dependency an enabled profile provides runs', async (t) => {
  if (!sandbox) return t.skip('sandbox unavailable');
  const code = script(['requires-python = ">=3.10"', 'dependencies = [', '  "numpy>=1.20",', '  "pandas",', ']'],
    'import numpy as np\nresult = int(np.arange(5).sum())\n');
  const r = await execute(science, { code });
  assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
  assert.equal(r.structuredContent.result, 10);
});

test('a dependency of a profile the server did not enable is a validation error on its line', async () => {
  const code = script(['dependencies = [', '  "numpy",', ']'], 'print(1)\n');
  const r = await execute(plain, { code });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.status, 'rejected');
  assert.deepEqual(r.structuredContent.validation.errors, [
    "Line 3: dependency 'numpy' needs the 'data_science' profile, which is not enabled here; packages " +
      'available here: none (the standard library needs no dependency) (PW007)',
  ]);
  assert.deepEqual(r.structuredContent.validation.findings.map((f) => [f.code, f.rule, f.line]),
    [['PW007', 'dependency-not-provided', 3]]);
});

test('a dependency no profile provides names what is available', async () => {
  const code = script(['dependencies = ["torch>=2", "Scikit_Learn"]'], 'print(1)\n');
  const r = await plain.callTool({ name: 'validate_code', arguments: { code } });
  assert.equal(r.structuredContent.validation.valid, false);
  assert.equal(r.structuredContent.validation.errors.length, 2);
  const s = await science.callTool({ name: 'validate_code', arguments: { code } });
  assert.deepEqual(s.structuredContent.validation.errors, [
    "Line 2: dependency 'torch' is not installed on this server (no profile or package set provides it; nothing is installed at run time); " +
      `packages available here: ${SCIENCE} (the standard library needs no dependency) (PW007)`,
  ]);
});

test('requires-python is checked against Python 3.11', async () => {
  const check = async (spec) => (await plain.callTool({
    name: 'validate_code', arguments: { code: script([`requires-python = "${spec}"`], 'print(1)\n') },
  })).structuredContent.validation.errors;
  assert.deepEqual(await check('>=3.12'), [
    `Line 1: script metadata: requires-python '>=3.12' excludes Python ${python}, the interpreter of this sandbox (PW008)`,
  ]);
  for (const ok of ['>=3.8', '~=3.11', '==3.11.*', '>=3.10,<3.12', '!=3.10.*']) {
    assert.deepEqual(await check(ok), [], ok);
  }
  for (const bad of ['<3.11', '==3.10.*', '~=3.12', `>${python}`]) {
    assert.equal((await check(bad)).length, 1, bad);
  }
  assert.match((await check('three'))[0], /requires-python 'three' is not a version specifier such as '>=3.10'/);
});

test('a block that is not TOML is reported; an unclosed one is no block', async () => {
  const bad = await plain.callTool({ name: 'validate_code', arguments: { code: '# /// script\n# dependencies = [\n# ///\nprint(1)\n' } });
  assert.match(bad.structuredContent.validation.errors[0], /^Line 1: script metadata: the '# \/\/\/ script' block is not valid TOML: /);
  const open = await plain.callTool({ name: 'validate_code', arguments: { code: '# /// script\n# dependencies = ["torch"]\nprint(1)\n' } });
  assert.equal(open.structuredContent.validation.valid, true);
});

test('the dependencies argument is checked the same way (line 0)', async (t) => {
  const r = await execute(plain, { code: 'print(1)', dependencies: ['numpy'] });
  assert.equal(r.structuredContent.status, 'rejected');
  assert.match(r.structuredContent.validation.errors[0], /^Line 0: dependency 'numpy' needs the 'data_science' profile/);
  const v = await plain.callTool({ name: 'validate_code', arguments: { code: 'print(1)', dependencies: ['torch'] } });
  assert.match(v.structuredContent.validation.errors[0], /^Line 0: dependency 'torch' is not installed on this server/);
  const bad = await execute(plain, { code: 'print(1)', dependencies: 'numpy' });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /'dependencies' must be a list of PEP 508 requirements such as \["numpy>=1.24"\], not a string/);
  if (!sandbox) return t.skip('sandbox unavailable');
  const ok = await execute(science, { code: 'import numpy\nresult = numpy.ones(3).tolist()', dependencies: ['numpy>=1.20'] });
  assert.deepEqual(ok.structuredContent.result, [1, 1, 1]);
});
