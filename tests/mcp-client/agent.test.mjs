// SPDX-License-Identifier: Apache-2.0
// agent.test.mjs - what an agent builder uses, through the official
// clients (v1 @modelcontextprotocol/sdk and v2 @modelcontextprotocol/
// client) over stdio and Streamable HTTP: a run's output as it happens in
// progress notifications (their _meta), a session's call interrupted at
// its time limit with the session kept, stdin per session call, input
// files for a fresh run, and write_file, list_files and read_file on a
// session's workspace.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { startHttp, stopHttp, tokenFile } from './httpserver.mjs';

const PYWARD = process.env.PYWARD ?? './pyward';
const TOKEN = 'pyward-agent-token-' + process.pid;
const auth = { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } };
const stdio = { command: PYWARD, args: ['serve', '--profiles', 'basic,filesystem'], env: { ...process.env }, stderr: 'pipe' };
let server;
const clients = {};

before(async () => {
  server = await startHttp(['--profiles', 'basic,filesystem', '--auth-token-file', tokenFile([TOKEN])]);
  clients['v1 stdio'] = new ClientV1({ name: 'agent-v1', version: '0' });
  await clients['v1 stdio'].connect(new StdioV1(stdio));
  clients['v2 stdio'] = new ClientV2({ name: 'agent-v2', version: '0' });
  await clients['v2 stdio'].connect(new StdioV2(stdio));
  clients['v1 http'] = new ClientV1({ name: 'agent-v1-http', version: '0' });
  await clients['v1 http'].connect(new HttpV1(server.url, auth));
  clients['v2 http'] = new ClientV2({ name: 'agent-v2-http', version: '0' });
  await clients['v2 http'].connect(new HttpV2(server.url, auth));
  for (const c of Object.values(clients)) await c.listTools(); // the output schemas checked
});
after(async () => {
  for (const c of Object.values(clients)) await c.close();
  if (server) assert.equal(await stopHttp(server.proc), 0);
});

// callTool with OPTIONS: v1 takes a result schema before them.
function call(kind, name, args, options) {
  const c = clients[kind];
  return kind.startsWith('v1') ? c.callTool({ name, arguments: args }, undefined, options)
    : c.callTool({ name, arguments: args }, options);
}

for (const kind of ['v1 stdio', 'v2 stdio', 'v1 http', 'v2 http']) {
  test(`${kind}: progress notifications carry the output as it comes`, async () => {
    const seen = [];
    const r = await call(kind, 'execute_code', {
      code: 'import time\nfor i in range(4):\n    print("step", i, flush=True)\n    time.sleep(0.3)\n',
    }, { onprogress: (p) => seen.push(p) });
    const streamed = seen.map((p) => p._meta?.['pyward/stdout'] ?? '').join('');
    assert.equal(streamed, 'step 0\nstep 1\nstep 2\nstep 3\n');
    assert.ok(seen.findIndex((p) => p._meta?.['pyward/stdout']?.includes('step 0')) < seen.length - 1,
      'the first line came before the last notification');
    assert.equal(r.structuredContent.stdout, streamed);
  });

  test(`${kind}: a session call at its time limit is interrupted, the session kept; stdin per call`, async () => {
    const c = await call(kind, 'create_session', { profile: ['basic', 'filesystem'] });
    const id = c.structuredContent.session_id;
    await call(kind, 'execute_code', { session_id: id, code: 'kept = [1, 2]' });
    const t = await call(kind, 'execute_code', { session_id: id, code: 'while True:\n    pass', timeout: 0.5 });
    assert.equal(t.structuredContent.status, 'timeout');
    assert.equal(t.structuredContent.timeout_interrupt, 'interrupted');
    assert.equal(t.structuredContent.session_ended, false);
    assert.match(t.structuredContent.traceback, /KeyboardInterrupt/);
    const n = await call(kind, 'execute_code', { session_id: id, code: 'print(kept, input())', stdin: 'in\n' });
    assert.equal(n.structuredContent.stdout, '[1, 2] in\n');
    const w = await call(kind, 'write_file', { session_id: id, path: 'in.csv', content: 'a\n1\n' });
    assert.equal(w.structuredContent.size, 4);
    await call(kind, 'execute_code', { session_id: id,
      code: 'import pathlib\npathlib.Path("out.bin").write_bytes(bytes([0, 255]) + pathlib.Path("in.csv").read_bytes())' });
    const l = await call(kind, 'list_files', { session_id: id });
    assert.deepEqual(l.structuredContent.entries.filter((e) => e.type === 'file').map((e) => e.name), ['in.csv', 'out.bin']);
    const rd = await call(kind, 'read_file', { session_id: id, path: 'out.bin' });
    assert.equal(rd.structuredContent.content_base64, Buffer.from([0, 255, 97, 10, 49, 10]).toString('base64'));
    const bad = await call(kind, 'read_file', { session_id: id, path: '/etc/passwd' });
    assert.equal(bad.isError, true);
    await call(kind, 'close_session', { session_id: id });
  });

  test(`${kind}: execute_code files are in a fresh run's workspace`, async () => {
    const r = await call(kind, 'execute_code', {
      code: 'import pathlib\nprint(pathlib.Path("n.txt").read_text().upper())',
      profile: ['basic', 'filesystem'], files: [{ path: 'n.txt', content: 'abc' }],
    });
    assert.equal(r.structuredContent.stdout, 'ABC\n');
  });
}
