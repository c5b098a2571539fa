// SPDX-License-Identifier: Apache-2.0
// bench-science.mjs - data-science programs through `pyward serve`
// (execute_code, profile data_science, a plot returned as an image) next
// to spawning python with the same imports and the same program, measured
// in the same run; last, the plot's floor: the same figure drawn again
// and again in one warm python3, no process and no sandbox per plot.
// Usage: node tests/bench/bench-science.mjs [PYWARD]
// Environment: BENCH_N (runs per figure, default 20), PYTHON (the
// interpreter to spawn, default /usr/bin/python3: Debian's, the one whose
// libpython pyward embeds and whose packages it imports).
import { spawnSync } from 'node:child_process';
import { Server } from './mcp-raw.mjs';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PYWARD = process.argv[2] ?? process.env.PYWARD ?? './pyward';
const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';
const N = Number(process.env.BENCH_N ?? 20);

const NUMPY = [
  'import numpy as np',
  'a = np.random.default_rng(1).standard_normal((200, 200))',
  'print(round(float(np.trace(a @ np.linalg.inv(a))), 3))',
].join('\n') + '\n';

const PLOT = [
  'import matplotlib.pyplot as plt',
  'import numpy as np',
  'x = np.linspace(0, 6.28, 200)',
  'fig, ax = plt.subplots(figsize=(4, 3), dpi=100)',
  'ax.plot(x, np.sin(x))',
  'fig.savefig("output/plot.png")',
  'print("saved")',
].join('\n') + '\n';


const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const since = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

async function viaPyward(srv, code, expectImage) {
  const t0 = process.hrtime.bigint();
  const r = await srv.request('tools/call', {
    name: 'execute_code', arguments: { code, profile: 'data_science' } });
  const took = since(t0);
  const res = r.result;
  if (!res || res.isError) throw new Error(JSON.stringify(r).slice(0, 500));
  if (expectImage && !res.content.some((c) => c.type === 'image')) {
    throw new Error('no image in the result');
  }
  return took;
}

function viaPython(code, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(PYTHON, ['-c', code], {
    cwd, env: { ...process.env, MPLBACKEND: 'Agg' }, encoding: 'utf8' });
  const took = since(t0);
  if (r.status !== 0) throw new Error(`${PYTHON}: ${r.stderr}`);
  return took;
}

async function measure(name, srv, code, cwd, image, target) {
  await viaPyward(srv, code, image); // warm-up, both sides
  viaPython(code, cwd);
  const a = [];
  const b = [];
  for (let i = 0; i < N; i++) {
    a.push(await viaPyward(srv, code, image));
    b.push(viaPython(code, cwd));
  }
  const pw = median(a);
  const py = median(b);
  console.log(`${name.padEnd(28)} pyward execute_code p50 ${pw.toFixed(1).padStart(7)} ms` +
    `   python -c p50 ${py.toFixed(1).padStart(7)} ms   python/pyward ${(py / pw).toFixed(1)}x` +
    (target ? `   (target <= ${target} ms: ${pw <= target ? 'met' : 'NOT met'})` : ''));
}

// The plot drawn N times in one python3 that drew it once before: the
// median of its own timings, what matplotlib takes for this figure here.
function plotFloor(cwd) {
  const body = PLOT.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('import') && !l.startsWith('print'));
  const code = [
    'import time, statistics',
    'import matplotlib.pyplot as plt',
    'import numpy as np',
    'def draw():',
    ...body.map((l) => '    ' + l),
    '    plt.close("all")',
    'draw()',
    'ts = []',
    `for _ in range(${N}):`,
    '    t0 = time.perf_counter()',
    '    draw()',
    '    ts.append((time.perf_counter() - t0) * 1000)',
    'print(statistics.median(ts))',
  ].join('\n') + '\n';
  const r = spawnSync(PYTHON, ['-c', code], {
    cwd, env: { ...process.env, MPLBACKEND: 'Agg' }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${PYTHON}: ${r.stderr}`);
  const ms = Number(r.stdout.trim());
  console.log(`${'floor: the plot again'.padEnd(28)} in one warm python3, no fork, no sandbox, p50 ${ms.toFixed(1)} ms` +
    `   (the 20 ms target is ${ms <= 20 ? 'above' : 'below'} it)`);
}

// A program that imports nothing of data_science, on this server: back to
// back (each call sent when the last is answered), next to spawning python.
async function lightBackToBack(srv, cwd) {
  const code = "print('hi')\n";
  const a = [];
  for (let i = 0; i < 20; i++) await viaPyward(srv, code, false);
  for (let i = 0; i < N * 10; i++) a.push(await viaPyward(srv, code, false));
  const b = [];
  for (let i = 0; i < N; i++) b.push(viaPython(code, cwd));
  const pw = median(a);
  const py = median(b);
  console.log(`${"print('hi'), back to back".padEnd(28)} pyward execute_code p50 ${pw.toFixed(2).padStart(7)} ms` +
    `   python -c p50 ${py.toFixed(1).padStart(7)} ms   python/pyward ${(py / pw).toFixed(1)}x` +
    '   (no data_science import: the light zygote)');
}

const srv = new Server(PYWARD, ['--profiles', 'basic,data_science']);
await srv.request('initialize', { protocolVersion: '2025-06-18', capabilities: {},
  clientInfo: { name: 'bench-science', version: '0' } });
const info = (await srv.request('tools/call', { name: 'get_sandbox_info', arguments: {} })).result.structuredContent;
const ds = (info.profiles ?? []).find((p) => p.name === 'data_science');
if (!info.sandbox_available || !ds || !ds.modules.includes('matplotlib')) {
  console.log(`not measured: ${info.sandbox_error ?? 'numpy/matplotlib not installed'}`);
} else {
  const cwd = mkdtempSync(join(tmpdir(), 'pyward-bench-'));
  mkdirSync(join(cwd, 'output'));
  console.log(`data_science through MCP stdio vs spawning ${PYTHON}, ${N} runs each, medians`);
  await measure('numpy: 200x200 inverse', srv, NUMPY, cwd, false);
  await measure('matplotlib: 400x300 PNG', srv, PLOT, cwd, true, 20);
  await lightBackToBack(srv, cwd);
  plotFloor(cwd);
  rmSync(cwd, { recursive: true, force: true });
}
srv.close();
