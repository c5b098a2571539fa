// SPDX-License-Identifier: Apache-2.0
// http.test.mjs - `pyward serve --http` through the official clients'
// Streamable HTTP transports: the v2 client (@modelcontextprotocol/client)
// offering only 2026-07-28 with a bearer token, and the v1 SDK in the
// handshake era (2025-11-25), several clients at once on one server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttp, stopHttp, tokenFile } from './httpserver.mjs';

const TOKEN = 'pyward-test-token-' + process.pid;
const REVISION = '2026-07-28';
let server;

function auth(token = TOKEN) {
  return { requestInit: { headers: { Authorization: `Bearer ${token}` } } };
}

async function v2(token = TOKEN) {
  const c = new ClientV2({ name: 'pyward-http-v2', version: '0.0.0' },
    { versionNegotiation: { mode: { pin: REVISION } } });
  await c.connect(new HttpV2(server.url, auth(token)));
  return c;
}

async function v1(token = TOKEN) {
  const c = new ClientV1({ name: 'pyward-http-v1', version: '0.0.0' });
  await c.connect(new HttpV1(server.url, auth(token)));
  return c;
}

before(async () => {
  server = await startHttp(['--auth-token-file', tokenFile([TOKEN, 'other-token'])]);
});
after(async () => {
  if (server) {
    assert.equal(await stopHttp(server.proc), 0);
  }
});

test('http: v2 client pinned to 2026-07-28 with a bearer token connects', async () => {
  const c = await v2();
  assert.equal(c.getNegotiatedProtocolVersion(), REVISION);
  assert.equal(c.getServerVersion()?.name, 'pyward');
  const { tools } = await c.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(),
    ['close_session', 'create_session', 'execute_code', 'fork_session',
      'get_sandbox_info', 'grade_code', 'list_files', 'list_sessions', 'read_file', 'validate_code', 'write_file']);
  await c.close();
});

test('http: v2 execute_code, validate_code, get_sandbox_info and errors', async () => {
  const c = await v2();
  const ok = await c.callTool({ name: 'execute_code', arguments: { code: 'x = 6 * 7\nprint(x)\nx' } });
  assert.equal(ok.isError, false);
  assert.equal(ok.structuredContent.stdout, '42\n');
  const bad = await c.callTool({ name: 'execute_code', arguments: { code: '1 / 0' } });
  assert.equal(bad.isError, true);
  assert.equal(bad.structuredContent.error_details.type, 'ZeroDivisionError');
  assert.equal(bad.structuredContent.error, 'ZeroDivisionError: division by zero');
  const v = await c.callTool({ name: 'validate_code', arguments: { code: 'import os' } });
  assert.equal(v.structuredContent.validation.valid, false);
  const i = await c.callTool({ name: 'get_sandbox_info', arguments: {} });
  assert.equal(typeof i.structuredContent.python_version, 'string');
  const wrong = await c.callTool({ name: 'execute_code', arguments: { code: 1 } });
  assert.equal(wrong.isError, true);
  assert.match(wrong.content[0].text, /'code' must be a string/);
  await c.close();
});

test('http: v2 progress comes as SSE events before the result', async () => {
  const c = await v2();
  const seen = [];
  const r = await c.callTool(
    { name: 'execute_code', arguments: { code: 'import time\ntime.sleep(0.7)\nprint("done")' } },
    { onprogress: (p) => seen.push(p.progress) });
  assert.equal(r.structuredContent.stdout, 'done\n');
  assert.ok(seen.length >= 2, `progress events: ${seen}`);
  await c.close();
});

test('http: a wrong token is refused (401) and the server goes on', async () => {
  await assert.rejects(v2('wrong-token'), /401|nauthorized/);
  const c = await v2('other-token');
  const r = await c.callTool({ name: 'execute_code', arguments: { code: 'print(2)' } });
  assert.equal(r.structuredContent.stdout, '2\n');
  await c.close();
});

test('http: v1 SDK in the handshake era: initialize, tools, errors', async () => {
  const c = await v1();
  assert.equal(c.getServerVersion()?.name, 'pyward');
  const { tools } = await c.listTools();
  assert.ok(tools.some((t) => t.name === 'execute_code'));
  const ok = await c.callTool({ name: 'execute_code', arguments: { code: 'print(sum(range(10)))' } });
  assert.equal(ok.structuredContent.stdout, '45\n');
  const v = await c.callTool({ name: 'validate_code', arguments: { code: 'open("/etc/passwd")' } });
  assert.equal(v.structuredContent.validation.valid, false);
  assert.equal(c.transport.protocolVersion, '2025-11-25');
  assert.equal(c.transport.sessionId, undefined); // stateless: no session
  const i = await c.callTool({ name: 'get_sandbox_info', arguments: {} });
  assert.equal(typeof i.structuredContent.python_version, 'string');
  await assert.rejects(c.callTool({ name: 'no_such_tool', arguments: {} }), /unknown tool/);
  await c.close();
});

test('http: v1 and v2 clients at once, runs in parallel on one server', async () => {
  const clients = [await v1(), await v2(), await v1(), await v2()];
  const t0 = Date.now();
  const results = await Promise.all(clients.map((c, k) => c.callTool({
    name: 'execute_code',
    arguments: { code: `import time\ntime.sleep(0.5)\nprint(${k})` },
  })));
  results.forEach((r, k) => assert.equal(r.structuredContent.stdout, `${k}\n`));
  // Four 0.5 s runs (two at once at least) take well under 4 x 0.5 s.
  assert.ok(Date.now() - t0 < 1900, `took ${Date.now() - t0} ms`);
  await Promise.all(clients.map((c) => c.close()));
});

test('http: the access log names requests, never the code or the token', () => {
  const log = server.stderr();
  assert.match(log, /"method":"POST","path":"\/mcp","status":200/);
  assert.match(log, /"rpc":"tools\/call"/);
  assert.ok(!log.includes(TOKEN), 'token in the log');
  assert.ok(!log.includes('time.sleep'), 'code in the log');
});
