// SPDX-License-Identifier: Apache-2.0
// sessions.test.mjs - sessions through the official MCP TypeScript SDK
// client (which checks each structuredContent against the tool's
// outputSchema): a handle from create_session, state across execute_code
// calls, fork_session, list_sessions, close_session, bad handles as tool errors and
// wrong types as -32602.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const PYWARD = process.env.PYWARD ?? './pyward';

let client;
before(async () => {
  client = new Client({ name: 'pyward-session-tests', version: '0.0.0' });
  await client.connect(new StdioClientTransport({
    command: PYWARD, args: ['serve', '--instance-id', 'sdk'],
    env: { ...process.env }, stderr: 'pipe',
  }));
  await client.listTools(); // caches the output schemas the SDK checks
});
after(async () => {
  await client?.close();
});

const call = (name, args) => client.callTool({ name, arguments: args });
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');

test('the session tools are listed with their schemas', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ['create_session', 'fork_session', 'close_session', 'list_sessions']) {
    assert.ok(names.includes(n), `${n} listed`);
  }
  const exec = tools.find((t) => t.name === 'execute_code');
  assert.equal(exec.inputSchema.properties.session_id.type, 'string');
  const create = tools.find((t) => t.name === 'create_session');
  assert.deepEqual(create.outputSchema.required, ['session_id']);
});

test('state persists across calls of a session, and only there', async () => {
  const c = await call('create_session', { timeout: 10 });
  assert.equal(c.isError, false);
  const id = c.structuredContent.session_id;
  assert.match(id, /^ps-sdk-[0-9a-f]{32}$/);
  const a = await call('execute_code', {
    session_id: id,
    code: 'import math\nclass P:\n    def __init__(self, r):\n        self.r = r\n'
      + 'def area(p):\n    return math.pi * p.r ** 2\nshapes = [P(1), P(2)]\n',
  });
  assert.equal(a.structuredContent.status, 'ok');
  assert.equal(a.structuredContent.session_id, id);
  const b = await call('execute_code', {
    session_id: id, code: 'total = sum(area(s) for s in shapes)\nround(total, 3)',
  });
  assert.equal(b.structuredContent.result, 15.708);
  assert.ok(b.structuredContent.variables.includes('total'));
  assert.ok('total' in b.structuredContent.variable_details);
  assert.match(text(b), /Result: 15\.708/);
  const fresh = await call('execute_code', { code: 'print(total)' });
  assert.equal(fresh.structuredContent.error_details.type, 'NameError');
  const listed = await call('list_sessions', {});
  assert.ok(listed.structuredContent.sessions.some((s) => s.session_id === id && s.calls === 2));
  const closed = await call('close_session', { session_id: id });
  assert.deepEqual(closed.structuredContent, { session_id: id, closed: true });
  const after = await call('execute_code', { session_id: id, code: 'print(1)' });
  assert.equal(after.isError, true);
  assert.match(text(after), /^session ended: closed by close_session/);
});

test('fork_session copies a live session; the copies diverge', async () => {
  const id = (await call('create_session', {})).structuredContent.session_id;
  await call('execute_code', { session_id: id, code: 'import math\nitems = [1, 2]\ndef total():\n    return sum(items)' });
  const f = await call('fork_session', { session_id: id });
  assert.equal(f.isError, false);
  const copy = f.structuredContent.session_id;
  assert.match(copy, /^ps-sdk-[0-9a-f]{32}$/);
  assert.notEqual(copy, id);
  assert.equal(f.structuredContent.forked_from, id);
  await call('execute_code', { session_id: copy, code: 'items.append(10)' });
  const a = await call('execute_code', { session_id: id, code: 'total()' });
  const b = await call('execute_code', { session_id: copy, code: 'total() + math.floor(0.5)' });
  assert.deepEqual([a.structuredContent.result, b.structuredContent.result], [3, 13]);
  await call('close_session', { session_id: id });
  const still = await call('execute_code', { session_id: copy, code: 'len(items)' });
  assert.equal(still.structuredContent.result, 3);
  const gone = await call('fork_session', { session_id: id });
  assert.equal(gone.isError, true);
  assert.match(text(gone), /^session ended: closed/);
  await call('close_session', { session_id: copy });
});

test('an unknown handle and a wrong type are tool errors', async () => {
  const r = await call('execute_code', { session_id: `ps-sdk-${'a'.repeat(32)}`, code: '1' });
  assert.equal(r.isError, true);
  assert.match(text(r), /^unknown session/);
  const wrong = await call('execute_code', { session_id: 7, code: '1' });
  assert.equal(wrong.isError, true);
  assert.match(text(wrong), /'session_id' must be/);
  const none = await call('close_session', {});
  assert.equal(none.isError, true);
  assert.match(text(none), /'session_id' must be/);
});

test('a call that times out and ignores its KeyboardInterrupt ends its session and says so', async () => {
  const id = (await call('create_session', {})).structuredContent.session_id;
  const r = await call('execute_code', { session_id: id, timeout: 0.5,
    code: 'import time\nwhile True:\n    try:\n        time.sleep(5)\n    except KeyboardInterrupt:\n        pass' });
  assert.equal(r.structuredContent.status, 'timeout');
  assert.equal(r.structuredContent.timeout_interrupt, 'killed');
  assert.equal(r.structuredContent.session_ended, true);
  assert.match(text(r), /The session has ended \(timeout\)/);
  const next = await call('execute_code', { session_id: id, code: 'print(1)' });
  assert.match(text(next), /^session ended: a call exceeded its time limit .* did not stop within/);
});
