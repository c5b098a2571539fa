// SPDX-License-Identifier: Apache-2.0
// cases.mjs - raw JSON-RPC cases for `pyward serve`.
//
// `lines` cases run in one initialized session (protocol 2025-06-18): each
// writes its raw line(s), reads exactly the replies in `expect` (partial
// matches, in order; `raw` = exact text the first reply must start with,
// `rawMatch` = a pattern its text must match),
// then pings: the pong must be the very next message, which shows that
// nothing else was answered and that the server goes on after bad input.
const err = (code) => ({ error: { code, message: (m) => typeof m === 'string' && m.length > 0 } });
const errId = (id, code) => ({ id, ...err(code) });
const req = (id, method, params) =>
  JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
const call = (id, name, args) => req(id, 'tools/call', { name, arguments: args });
const msgHas = (re) => ({ error: { message: (m) => re.test(m) } });
const argErr = (id, re) => ({ id, result: { isError: true, content: (c) => c.length === 1 && c[0].type === 'text' && re.test(c[0].text) } });
const code = 'print(1)';

export const lineCases = [
  // --- framing and parsing
  { name: 'not JSON -> -32700 with id null', send: 'garbage', expect: [errId(null, -32700)] },
  { name: 'truncated JSON -> -32700', send: '{"jsonrpc":"2.0","id":1,', expect: [errId(null, -32700)] },
  { name: 'invalid UTF-8 -> -32700',
    send: Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'),
      Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]),
    expect: [errId(null, -32700)] },
  { name: '100,000-deep nesting -> -32700, no crash',
    send: '['.repeat(100000) + ']'.repeat(100000), expect: [errId(null, -32700)] },
  { name: 'deep nesting inside params -> -32700',
    send: '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":' + '['.repeat(100000) + ']'.repeat(100000) + '}}',
    expect: [errId(null, -32700)] },
  { name: 'blank line is ignored', send: '   ', expect: [] },
  { name: 'two messages on one write are both answered',
    send: req(1, 'ping') + '\n' + req(2, 'ping'), expect: [{ id: 1, result: {} }, { id: 2, result: {} }] },
  // --- envelopes
  { name: 'a number is not a request -> -32600', send: '42', expect: [errId(null, -32600)] },
  { name: 'a string is not a request -> -32600', send: '"ping"', expect: [errId(null, -32600)] },
  { name: 'null is not a request -> -32600', send: 'null', expect: [errId(null, -32600)] },
  { name: 'missing jsonrpc -> -32600, id echoed', send: '{"id":3,"method":"ping"}', expect: [errId(3, -32600)] },
  { name: 'jsonrpc 1.0 -> -32600', send: '{"jsonrpc":"1.0","id":4,"method":"ping"}', expect: [errId(4, -32600)] },
  { name: 'method not a string -> -32600', send: '{"jsonrpc":"2.0","id":5,"method":3}', expect: [errId(5, -32600)] },
  { name: 'missing method -> -32600', send: '{"jsonrpc":"2.0","id":6}', expect: [errId(6, -32600)] },
  { name: 'id object -> -32600 with id null', send: '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', expect: [errId(null, -32600)] },
  { name: 'id null -> -32600', send: '{"jsonrpc":"2.0","id":null,"method":"ping"}', expect: [errId(null, -32600)] },
  { name: 'id-less invalid request -> -32600 with id null', send: '{"jsonrpc":"2.0","method":1}', expect: [errId(null, -32600)] },
  { name: 'params array -> -32602', send: '{"jsonrpc":"2.0","id":8,"method":"ping","params":[1]}', expect: [errId(8, -32602)] },
  { name: 'params string -> -32600', send: '{"jsonrpc":"2.0","id":9,"method":"ping","params":"x"}', expect: [errId(9, -32600)] },
  { name: 'unknown method -> -32601', send: req(10, 'resources/list'), expect: [{ id: 10, ...err(-32601), ...msgHas(/resources\/list/) }] },
  // --- ids echoed exactly
  { name: 'string id echoed', send: req('abc', 'ping'), expect: [{ id: 'abc', result: {} }] },
  { name: 'unicode string id echoed', send: req('é✓ id', 'ping'), expect: [{ id: 'é✓ id', result: {} }] },
  { name: 'escaped string id echoed as written', send: '{"jsonrpc":"2.0","id":"a\\u0062c","method":"ping"}',
    expect: [{ id: 'abc' }], raw: '{"jsonrpc":"2.0","id":"a\\u0062c",' },
  { name: 'negative id echoed', send: req(-7, 'ping'), expect: [{ id: -7 }], raw: '{"jsonrpc":"2.0","id":-7,' },
  { name: 'zero id echoed', send: req(0, 'ping'), expect: [{ id: 0 }], raw: '{"jsonrpc":"2.0","id":0,' },
  { name: 'huge integer id echoed exactly', send: '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}',
    expect: [{ result: {} }], raw: '{"jsonrpc":"2.0","id":123456789012345678901234567890,' },
  { name: 'exponent id echoed exactly', send: '{"jsonrpc":"2.0","id":1E+2,"method":"ping"}',
    expect: [{ id: 100 }], raw: '{"jsonrpc":"2.0","id":1E+2,' },
  { name: 'whole id written with a fraction echoed exactly', send: '{"jsonrpc":"2.0","id":1.0,"method":"ping"}',
    expect: [{ id: 1 }], raw: '{"jsonrpc":"2.0","id":1.0,' },
  { name: 'id of an error reply echoed too', send: '{"jsonrpc":"2.0","id":2.50E+1,"method":"nope"}',
    expect: [errId(25, -32601)], raw: '{"jsonrpc":"2.0","id":2.50E+1,' },
  // --- ids that are not ids: -32600 with id null (JSON-RPC: a string or a whole number)
  { name: 'fractional id -> -32600 with id null', send: '{"jsonrpc":"2.0","id":0.1,"method":"ping"}',
    expect: [{ ...errId(null, -32600), ...msgHas(/'id' must be a string or a whole number/) }] },
  { name: 'fractional id on a tools/call -> -32600 with id null, nothing run',
    send: '{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"execute_code","arguments":{"code":"print(1)"}}}',
    expect: [errId(null, -32600)] },
  { name: 'fractional id on an unknown method -> -32600 with id null', send: '{"jsonrpc":"2.0","id":2.50,"method":"nope"}',
    expect: [errId(null, -32600)], raw: '{"jsonrpc":"2.0","id":null,' },
  { name: 'tiny fractional id -> -32600 with id null', send: '{"jsonrpc":"2.0","id":1e-300,"method":"ping"}',
    expect: [errId(null, -32600)] },
  { name: 'id array -> -32600 with id null', send: '{"jsonrpc":"2.0","id":[1],"method":"ping"}', expect: [errId(null, -32600)] },
  { name: 'id true -> -32600 with id null', send: '{"jsonrpc":"2.0","id":true,"method":"ping"}', expect: [errId(null, -32600)] },
  { name: 'a response with a fractional id -> -32600 with id null', send: '{"jsonrpc":"2.0","id":0.5,"result":{}}',
    expect: [errId(null, -32600)] },
  // --- notifications and responses get no answer
  { name: 'unknown notification: no answer', send: '{"jsonrpc":"2.0","method":"notifications/whatever"}', expect: [] },
  { name: 'initialized notification: no answer', send: '{"jsonrpc":"2.0","method":"notifications/initialized"}', expect: [] },
  { name: 'cancel of an unknown request: no answer',
    send: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"none"}}', expect: [] },
  { name: 'a response from the client: no answer', send: '{"jsonrpc":"2.0","id":99,"result":{}}', expect: [] },
  { name: 'batch refused in 2025-06-18', send: '[' + req(1, 'ping') + ']', expect: [errId(null, -32600)] },
  // --- MCP methods
  { name: 'second initialize -> -32600',
    send: req(11, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
    expect: [errId(11, -32600)] },
  { name: 'logging/setLevel debug', send: req(12, 'logging/setLevel', { level: 'debug' }), expect: [{ id: 12, result: {} }] },
  { name: 'logging/setLevel bogus -> -32602', send: req(13, 'logging/setLevel', { level: 'loud' }), expect: [errId(13, -32602)] },
  { name: 'logging/setLevel back to error', send: req(14, 'logging/setLevel', { level: 'error' }), expect: [{ id: 14, result: {} }] },
  { name: 'tools/list: eleven tools with schemas', send: req(15, 'tools/list'),
    expect: [{ id: 15, result: { tools: (t) => Array.isArray(t) && t.length === 11 &&
      ['execute_code', 'validate_code', 'get_sandbox_info', 'grade_code', 'create_session', 'close_session',
        'fork_session', 'list_sessions', 'write_file', 'read_file', 'list_files'].every((n) => t.some((x) => x.name === n &&
        x.inputSchema?.type === 'object' && x.outputSchema?.type === 'object' && typeof x.description === 'string')) } }] },
  { name: 'create_session with an unknown argument -> isError', send: call(151, 'create_session', { name: 'x' }),
    expect: [argErr(151, /unknown argument 'name'/)] },
  { name: 'create_session ttl not a number -> isError', send: call(152, 'create_session', { ttl: '5' }),
    expect: [argErr(152, /'ttl' must be a number of seconds/)] },
  { name: 'close_session without session_id -> isError', send: call(153, 'close_session', {}),
    expect: [argErr(153, /'session_id' must be the string/)] },
  { name: 'close_session of an unknown handle -> a tool error', send: call(154, 'close_session', { session_id: 'ps-x-00' }),
    expect: [{ id: 154, result: { isError: true, content: (c) => /^unknown session/.test(c[0].text) } }] },
  { name: 'execute_code with session_id 5 -> isError', send: call(155, 'execute_code', { code, session_id: 5 }),
    expect: [argErr(155, /'session_id' must be the string/)] },
  { name: 'list_sessions with none open -> an empty list', send: call(156, 'list_sessions', {}),
    expect: [{ id: 156, result: { isError: false, structuredContent: { sessions: (l) => Array.isArray(l) && l.length === 0 } } }] },
  { name: 'tools/call without name -> -32602', send: req(16, 'tools/call', { arguments: {} }), expect: [errId(16, -32602)] },
  { name: 'unknown tool -> -32602', send: call(17, 'rm_rf', {}), expect: [{ id: 17, ...err(-32602), ...msgHas(/unknown tool/) }] },
  { name: 'arguments not an object -> -32602', send: call(18, 'execute_code', [code]), expect: [errId(18, -32602)] },
  // Argument errors are tool results with isError (MCP 2025-11-25, SEP-1303): the model reads them.
  { name: 'execute_code without code -> isError', send: call(19, 'execute_code', {}),
    expect: [argErr(19, /^execute_code: invalid arguments: missing required argument 'code'$/)] },
  { name: 'execute_code without arguments -> isError', send: req(20, 'tools/call', { name: 'execute_code' }), expect: [argErr(20, /missing required argument 'code'/)] },
  { name: 'code not a string -> isError', send: call(21, 'execute_code', { code: 42 }), expect: [argErr(21, /'code' must be a string of Python source, not a number/)] },
  { name: 'timeout negative -> isError', send: call(22, 'execute_code', { code, timeout: -1 }), expect: [argErr(22, /'timeout' is -1 s: it must be above 0 and at most 300 s/)] },
  { name: 'timeout zero -> isError', send: call(23, 'execute_code', { code, timeout: 0 }), expect: [argErr(23, /'timeout' is 0 s/)] },
  { name: 'timeout above the maximum -> isError', send: call(24, 'execute_code', { code, timeout: 301 }),
    expect: [argErr(24, /'timeout' is 301 s: it must be above 0 and at most 300 s, the maximum of this server; leave it out for the default of 30 s/)] },
  { name: 'timeout a string -> isError', send: call(25, 'execute_code', { code, timeout: '5' }), expect: [argErr(25, /'timeout' must be a number of seconds, not a string/)] },
  { name: 'unknown profile -> isError', send: call(26, 'execute_code', { code, profile: 'nope' }),
    expect: [argErr(26, /unknown profile 'nope': the profiles are basic, .*data_science.*, and this server enabled basic$/)] },
  { name: 'profile not enabled -> isError saying how the operator enables it', send: call(27, 'execute_code', { code, profile: ['basic', 'network'] }),
    expect: [argErr(27, /profile 'network' is not enabled on this server, which enabled only basic: 'profile' can only choose among those; .*pyward serve --profiles basic,network, or SANDBOX_ENABLE_NETWORK=1/)] },
  { name: 'profile a number -> isError', send: call(28, 'execute_code', { code, profile: 3 }), expect: [argErr(28, /'profile' must be a profile name or a list of names, not a number/)] },
  { name: 'allowed_imports a string -> isError', send: call(29, 'execute_code', { code, allowed_imports: 'math' }), expect: [argErr(29, /'allowed_imports' must be a list of module names such as \["math"\], not a string/)] },
  { name: 'allowed_imports with a number -> isError', send: call(30, 'execute_code', { code, allowed_imports: ['math', 1] }), expect: [argErr(30, /item 1 is a number/)] },
  { name: 'memory_limit nonsense -> isError naming the forms', send: call(31, 'execute_code', { code, memory_limit: 'lots' }),
    expect: [argErr(31, /'memory_limit' "lots" is not a size: give a number of bytes, or a number followed by k, m or g \("512k", "256m", "1g"\)/)] },
  { name: 'memory_limit above the maximum -> isError', send: call(32, 'execute_code', { code, memory_limit: '100g' }), expect: [argErr(32, /this server allows at most 4294967296 bytes \(4096 MiB\)/)] },
  { name: 'memory_limit a boolean -> isError', send: call(42, 'execute_code', { code, memory_limit: true }), expect: [argErr(42, /'memory_limit' must be a string such as "256m" or a number of bytes, not a boolean/)] },
  // Numbers out of range or past what an integer holds: tool errors naming the field, nothing run.
  { name: 'timeout 1e308 -> isError', send: call(43, 'execute_code', { code, timeout: 1e308 }),
    expect: [argErr(43, /'timeout' is 1e\+308 s: it must be above 0 and at most 300 s/)] },
  { name: 'timeout -1e308 -> isError', send: call(44, 'execute_code', { code, timeout: -1e308 }),
    expect: [argErr(44, /'timeout' is -1e\+308 s/)] },
  { name: 'memory_limit 1e308 -> isError', send: call(45, 'execute_code', { code, memory_limit: 1e308 }),
    expect: [argErr(45, /'memory_limit' is 1e\+308: a number of bytes must be a whole number above 0 and at most 4294967296/)] },
  { name: 'memory_limit past 64 bits -> isError', send: '{"jsonrpc":"2.0","id":46,"method":"tools/call","params":{"name":"execute_code",' +
      '"arguments":{"code":"print(1)","memory_limit":123456789012345678901234567890}}}',
    expect: [argErr(46, /'memory_limit' is 1\.23456789012346e\+29: a number of bytes must be a whole number/)] },
  { name: 'memory_limit a fraction -> isError', send: call(47, 'execute_code', { code, memory_limit: 268435456.5 }),
    expect: [argErr(47, /'memory_limit' is 268435456\.5: a number of bytes must be a whole number/)] },
  { name: 'memory_limit negative -> isError', send: call(48, 'execute_code', { code, memory_limit: -1 }),
    expect: [argErr(48, /'memory_limit' is -1: a number of bytes must be a whole number above 0/)] },
  { name: 'memory_limit a whole number written 2.5e8 -> runs', send: '{"jsonrpc":"2.0","id":49,"method":"tools/call","params":' +
      '{"name":"execute_code","arguments":{"code":"print(1)","memory_limit":2.5e8}}}',
    expect: [{ id: 49, result: { structuredContent: { stdout: '1\n' } } }] },
  { name: 'create_session ttl 1e308 -> isError', send: call(157, 'create_session', { ttl: 1e308 }),
    expect: [argErr(157, /'ttl' must be a number of seconds above 0 and at most 600/)] },
  { name: 'create_session timeout -1e308 -> isError', send: call(158, 'create_session', { timeout: -1e308 }),
    expect: [argErr(158, /'timeout' must be a number of seconds above 0 and at most 300/)] },
  { name: 'create_session memory_limit 1e308 -> isError', send: call(159, 'create_session', { memory_limit: 1e308 }),
    expect: [argErr(159, /'memory_limit' must be a size such as "256m" or "1g", or a whole number of bytes, at most 4294967296/)] },
  { name: 'grade_code test timeout 1e308 -> isError', send: call(160, 'grade_code',
    { code, tests: { tests: [{ expected_stdout: '1\n', timeout: 1e308 }] } }),
    expect: [argErr(160, /tests\[0\]: "timeout" must be between 0\.001 and 300/)] },
  { name: 'grade_code memory 1e308 -> isError', send: call(161, 'grade_code',
    { code, tests: { defaults: { memory: 1e308 }, tests: [{ expected_stdout: '1\n' }] } }),
    expect: [argErr(161, /defaults: "memory" must be a size in bytes \(a whole number above 0\)/)] },
  { name: 'grade_code points -1e308 -> isError', send: call(162, 'grade_code',
    { code, tests: { tests: [{ expected_stdout: '1\n', points: -1e308 }] } }),
    expect: [argErr(162, /"points" must be between 0 and 1e\+06/)] },
  { name: 'stdin not a string -> isError', send: call(33, 'execute_code', { code, stdin: 1 }), expect: [argErr(33, /'stdin' must be a string/)] },
  { name: 'capture_output not a boolean -> isError', send: call(34, 'execute_code', { code, capture_output: 'yes' }), expect: [argErr(34, /'capture_output' must be true or false, not a string/)] },
  { name: 'unknown argument -> isError listing the arguments', send: call(35, 'execute_code', { code, sudo: true }),
    expect: [argErr(35, /unknown argument 'sudo': the arguments are code, profile, allowed_imports, timeout, stdin, memory_limit, capture_output, session_id, files, use_container, dependencies$/)] },
  { name: '10 MB code string -> isError too large', send: call(36, 'execute_code', { code: '#'.repeat(10 << 20) }), expect: [argErr(36, /too large/)] },
  { name: '10 MB code to validate_code -> isError', send: call(37, 'validate_code', { code: 'x'.repeat(10 << 20) }), expect: [argErr(37, /^validate_code: invalid arguments: 'code' is too large/)] },
  { name: 'validate_code without code -> isError', send: call(38, 'validate_code', { profile: 'basic' }), expect: [argErr(38, /missing required argument 'code'/)] },
  { name: 'validate_code rejects execute-only arguments', send: call(39, 'validate_code', { code, timeout: 3 }), expect: [argErr(39, /unknown argument 'timeout': the arguments are code, profile, allowed_imports, dependencies$/)] },
  { name: 'get_sandbox_info with arguments -> isError', send: call(40, 'get_sandbox_info', { x: 1 }), expect: [argErr(40, /get_sandbox_info takes no arguments/)] },
  { name: 'get_sandbox_info result', send: call(41, 'get_sandbox_info', {}),
    expect: [{ id: 41, result: { isError: false, content: (c) => c[0].type === 'text',
      structuredContent: { version: (v) => /^\d+\.\d+/.test(v), python_version: (v) => /^3\.\d+/.test(v),
        limits: { timeout: { default: 30, max: 300 } },
        profiles: (p) => p.length === 1 && p[0].name === 'basic' && p[0].modules.includes('math') && p[0].modules.includes('json'),
        isolation: (i) => typeof i === 'object' } } }] },
  // --- numbers as they are written: the shortest form that reads back
  { name: 'a result float and the run times in their shortest form', send: call(42, 'execute_code', { code: 'x = [0.018, 0.1 + 0.2, 1e+20, 2.5e-07]\nx' }),
    expect: [{ id: 42, result: { structuredContent: { result: [0.018, 0.30000000000000004, 1e20, 2.5e-7] } } }],
    rawMatch: /"result":\[0\.018,0\.30000000000000004,1e\+?20,2\.5e-0?7\],.*"execution_time":\d+(\.\d{1,6})?,"cpu_time":\d+(\.\d{1,6})?,/ },
  // --- messages an agent acts on
  { name: 'get_sandbox_info text lists the profiles, modules and limits', send: call(43, 'get_sandbox_info', {}),
    expect: [{ id: 43, result: { content: (c) => /\n- basic \(default\): [^\n]+\n  modules: math, [^\n]*\bsys\n/.test(c[0].text) &&
      /\nLimits: timeout 30 s \(a call may ask up to 300 s\)/.test(c[0].text) } }] },
  { name: 'open() without the filesystem profile names the profile that gives it', send: call(44, 'validate_code', { code: 'open("data.csv", "w")' }),
    expect: [{ id: 44, result: { structuredContent: { validation: { errors: (e) => /select the 'filesystem' profile/.test(e[0]) } } } }] },
];

// An oversized line (over 16 MiB) is refused with a clear error, with the
// request's id when it is read from the line's start, or from its end when
// "id" is the last member (as the MCP TypeScript SDK writes requests), else
// with id null; the next line is served.
const big = 'y'.repeat(17 << 20);
const tooLong = (id) => ({ id, ...err(-32600), ...msgHas(/longer than/) });
export const oversized = [
  { name: 'a 17 MB line -> -32600 "longer than" with its id, then served',
    send: '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + big + '"}}', expect: [tooLong(1)] },
  { name: 'a 17 MB line with "id" last -> -32600 with its id',
    send: '{"method":"tools/call","params":{"name":"execute_code","arguments":{"code":"' + big +
      '"}},"jsonrpc":"2.0","id":"sdk-7"}', expect: [tooLong('sdk-7')] },
  { name: 'a 17 MB line with an "id" only inside params -> -32600 with id null',
    send: '{"jsonrpc":"2.0","method":"ping","params":{"x":"' + big + '","id":5}}', expect: [tooLong(null)] },
  { name: 'a 17 MB line that is not JSON -> -32600 with id null', send: big, expect: [tooLong(null)] },
];
