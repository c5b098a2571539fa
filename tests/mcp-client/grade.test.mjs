// SPDX-License-Identifier: Apache-2.0
// grade.test.mjs - grade_code through the official MCP TypeScript SDK
// client (which checks structuredContent against the tool's outputSchema):
// verdicts, the text a model reads, bad suites as tool results with isError, and a
// checker program that attacks the host, stopped by the sandbox.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const PYWARD = process.env.PYWARD ?? './pyward';
const SUM = 'a, b = map(int, input().split())\nprint(a + b)\n';

let client;
before(async () => {
  client = new Client({ name: 'pyward-grade-tests', version: '0.0.0' });
  await client.connect(new StdioClientTransport({
    command: PYWARD, args: ['serve'], env: { ...process.env }, stderr: 'pipe',
  }));
  await client.listTools(); // caches the output schemas the SDK checks
});
after(async () => {
  await client?.close();
});

const grade = (code, tests, extra = {}) =>
  client.callTool({ name: 'grade_code', arguments: { code, tests, ...extra } });

test('grade_code is listed with its schemas', async () => {
  const { tools } = await client.listTools();
  const g = tools.find((t) => t.name === 'grade_code');
  assert.ok(g, 'grade_code listed');
  assert.deepEqual(g.inputSchema.required, ['code', 'tests']);
  assert.equal(g.outputSchema.properties.verdict.enum.length, 8);
});

test('grade_code: verdicts per test, in order, and the overall one', async () => {
  const r = await grade(SUM, {
    defaults: { timeout: 2 },
    tests: [
      { name: 'small', stdin: '1 2\n', expected_stdout: '3\n' },
      { name: 'wrong', stdin: '2 2\n', expected_stdout: '5\n', points: 2 },
      { name: 'no input', stdin: '', expected_stdout: '0\n' },
    ],
  });
  const s = r.structuredContent;
  assert.equal(r.isError, false);
  assert.deepEqual(s.tests.map((t) => [t.name, t.verdict]),
    [['small', 'AC'], ['wrong', 'WA'], ['no input', 'RE']]);
  assert.equal(s.verdict, 'WA');
  assert.equal(s.passed, 1);
  assert.equal(s.points, 1);
  assert.equal(s.max_points, 4);
  assert.equal(s.tests[1].diff, 'line 1: expected "5", got "4"');
  assert.match(s.tests[2].message, /^EOFError/);
  const text = r.content[0].text;
  assert.match(text, /^Verdict WA: 1 of 3 tests passed/);
  assert.match(text, /wrong: WA: line 1: expected "5", got "4"/);
  assert.match(text, /no input: RE: EOFError/);
});

test('grade_code: code the rules reject is CE, with the problems', async () => {
  const r = await grade('import os\nprint(os.getcwd())\n',
    { tests: [{ expected_stdout: '/\n' }] });
  assert.equal(r.structuredContent.verdict, 'CE');
  assert.match(r.structuredContent.compile_errors[0], /^1:8: PW101/);
  assert.match(r.content[0].text, /compile error: 1:8: PW101/);
});

test('grade_code: a checker program decides', async () => {
  const checker = 'import json\nd = json.loads(input())\n' +
    "print('AC close enough' if abs(float(d['output']) - 3.14159) < 0.01 else 'WA off')\n";
  const r = await grade('print(22 / 7)\n', {
    checker_code: checker,
    tests: [{ name: 'pi', checker: 'program' }],
  });
  const t = r.structuredContent.tests[0];
  assert.equal(t.verdict, 'AC');
  assert.equal(t.feedback, 'close enough');
});

test('grade_code: a checker that attacks the host is stopped by the sandbox', async () => {
  const checker = "print('AC', open('/etc/shadow').read())\n";
  const r = await grade('print(1)\n', {
    checker_code: checker,
    tests: [{ checker: 'program' }],
  });
  const t = r.structuredContent.tests[0];
  assert.equal(t.verdict, 'IE');
  assert.match(t.message, /the checker program failed/);
  assert.doesNotMatch(JSON.stringify(r), /root:/);
});

test('grade_code: bad suites and arguments are isError results naming the field', async () => {
  const cases = [
    [{ tests: [] }, /"tests" must be a list/],
    [{ tests: [{ stdin: '1' }] }, /"expected_stdout" is missing/],
    [{ tests: [{ expected_stdout: '1', timeout: 301 }] }, /"timeout" must be between/],
    [{ tests: [{ expected_stdout: '1', colour: 'red' }] }, /"colour" is not a field of a test/],
    [{ tests: [{ expected_stdout: '1' }], checker_program: 'x.py' }, /is for suites read from a file/],
  ];
  for (const [tests, re] of cases) {
    const r = await grade('print(1)', tests);
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^grade_code: invalid arguments: 'tests': /);
    assert.match(r.content[0].text, re);
  }
  const missing = await client.callTool({ name: 'grade_code', arguments: { code: 'print(1)' } });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /missing required argument 'tests'/);
  // The server still answers.
  const r = await grade('print(1)\n', { tests: [{ expected_stdout: '1\n' }] });
  assert.equal(r.structuredContent.verdict, 'AC');
});
