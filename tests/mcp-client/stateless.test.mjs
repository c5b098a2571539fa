// SPDX-License-Identifier: Apache-2.0
// stateless.test.mjs - protocol revision 2026-07-28 (stateless: no
// initialize, each request's _meta carries the version and the client's
// capabilities) through the official v2 client, @modelcontextprotocol/
// client, offering only that revision; and the raw answers the revision
// prescribes for what a client may get wrong.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const PYWARD = process.env.PYWARD ?? './pyward';
const REVISION = '2026-07-28';

let client;
before(async () => {
  client = new Client({ name: 'pyward-v2-tests', version: '0.0.0' },
    { versionNegotiation: { mode: { pin: REVISION } } });
  await client.connect(new StdioClientTransport({
    command: PYWARD, args: ['serve'], env: { ...process.env }, stderr: 'pipe',
  }));
});
after(async () => {
  await client?.close();
});

test('v2 client pinned to 2026-07-28 connects without a handshake', () => {
  assert.equal(client.getNegotiatedProtocolVersion(), REVISION);
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getServerVersion()?.name, 'pyward');
});

test('tools/list in 2026-07-28: the eleven tools and their schemas', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(),
    ['close_session', 'create_session', 'execute_code', 'fork_session', 'get_sandbox_info',
      'grade_code', 'list_files', 'list_sessions', 'read_file', 'validate_code', 'write_file']);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object');
    assert.equal(t.outputSchema.type, 'object');
  }
});

test('fork_session in 2026-07-28: a copy of a live session, then two', async () => {
  const call = (name, args) => client.callTool({ name, arguments: args });
  const id = (await call('create_session', {})).structuredContent.session_id;
  await call('execute_code', { session_id: id, code: 'n = 41' });
  const f = await call('fork_session', { session_id: id });
  assert.equal(f.isError, false);
  assert.equal(f.structuredContent.forked_from, id);
  const copy = f.structuredContent.session_id;
  await call('execute_code', { session_id: copy, code: 'n += 1' });
  const a = await call('execute_code', { session_id: id, code: 'n' });
  const b = await call('execute_code', { session_id: copy, code: 'n' });
  assert.deepEqual([a.structuredContent.result, b.structuredContent.result], [41, 42]);
  for (const s of [id, copy]) {
    assert.equal((await call('close_session', { session_id: s })).isError, false);
  }
});

test('execute_code in 2026-07-28: output, value and errors come back', async () => {
  const ok = await client.callTool({ name: 'execute_code', arguments: { code: 'x = 6 * 7\nprint(x)\nx' } });
  assert.equal(ok.isError, false);
  assert.equal(ok.structuredContent.stdout, '42\n');
  assert.equal(ok.structuredContent.status, 'ok');
  const bad = await client.callTool({ name: 'execute_code', arguments: { code: '1 / 0' } });
  assert.equal(bad.isError, true);
  assert.equal(bad.structuredContent.error, 'ZeroDivisionError: division by zero');
});

test('validate_code, get_sandbox_info and grade_code in 2026-07-28', async () => {
  const v = await client.callTool({ name: 'validate_code', arguments: { code: 'import os' } });
  assert.equal(v.structuredContent.validation.valid, false);
  const i = await client.callTool({ name: 'get_sandbox_info', arguments: {} });
  assert.equal(typeof i.structuredContent.python_version, 'string');
  const g = await client.callTool({
    name: 'grade_code',
    arguments: { code: 'print(int(input()) * 2)', tests: { tests: [{ stdin: '21', expected_stdout: '42\n' }] } },
  });
  assert.equal(g.structuredContent.verdict, 'AC');
});

test('bad arguments in 2026-07-28 are an isError result the client reads, and the server goes on', async () => {
  const bad = await client.callTool({ name: 'execute_code', arguments: { code: 1 } });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /'code' must be a string of Python source, not a number/);
  const again = await client.callTool({ name: 'execute_code', arguments: { code: 'print(1)' } });
  assert.equal(again.structuredContent.stdout, '1\n');
});

// Raw lines for what the SDK never sends wrong.
async function raw(lines) {
  const p = spawn(PYWARD, ['serve'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rl = createInterface({ input: p.stdout });
  const out = [];
  const done = new Promise((resolve) => {
    rl.on('line', (l) => {
      out.push(JSON.parse(l));
      if (out.length === lines.length) resolve();
    });
  });
  for (const l of lines) p.stdin.write(JSON.stringify(l) + '\n');
  await done;
  p.stdin.end();
  await new Promise((r) => p.on('close', r));
  return out;
}
const meta = (v = REVISION, caps = {}) => ({
  'io.modelcontextprotocol/protocolVersion': v,
  ...(caps && { 'io.modelcontextprotocol/clientCapabilities': caps }),
});

test('raw 2026-07-28: discover, versions, missing capabilities, removed methods', async () => {
  const [discover, unsupported, nocaps, ping, bare, legacy] = await raw([
    { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta('2099-01-01') } },
    { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta(REVISION, null) } },
    { jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: meta() } },
    { jsonrpc: '2.0', id: 5, method: 'server/discover' },
    { jsonrpc: '2.0', id: 6, method: 'tools/list' },
  ]);
  const d = discover.result;
  assert.equal(d.resultType, 'complete');
  assert.ok(d.supportedVersions.includes(REVISION) && d.supportedVersions.includes('2025-11-25'));
  assert.deepEqual(d.capabilities, { tools: { listChanged: false } });
  assert.equal(typeof d.ttlMs, 'number');
  assert.equal(d._meta['io.modelcontextprotocol/serverInfo'].name, 'pyward');
  assert.equal(unsupported.error.code, -32022);
  assert.equal(unsupported.error.data.requested, '2099-01-01');
  assert.ok(unsupported.error.data.supported.includes(REVISION));
  assert.equal(nocaps.error.code, -32602);
  assert.match(nocaps.error.message, /clientCapabilities/);
  assert.equal(ping.error.code, -32601);
  assert.equal(bare.error.code, -32600);
  // Without the 2026-07-28 _meta a request is of the handshake era.
  assert.equal(legacy.error.code, -32600);
  assert.match(legacy.error.message, /not initialized/);
});
