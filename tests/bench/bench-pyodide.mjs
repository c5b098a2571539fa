// SPDX-License-Identifier: Apache-2.0
// bench-pyodide.mjs - Pyodide (CPython compiled to WebAssembly) in node,
// for bench-compare.py: the time to load a fresh interpreter (what a run
// that must not see an earlier run's state costs), and print('hi')
// through runPython in one warm interpreter (no isolation between runs).
// Usage: node bench-pyodide.mjs DIR RUNS, DIR holding node_modules/pyodide.
// Prints one JSON line: {"load_ms": [...], "run_ms": median}.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [dir, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 200);
const require = createRequire(join(dir, 'package.json'));
const { loadPyodide } = require('pyodide');

const loads = [];
let py;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  py = await loadPyodide({ stdout: () => {} });
  loads.push(performance.now() - t0);
}
const xs = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  py.runPython("print('hi')");
  xs.push(performance.now() - t0);
}
xs.sort((a, b) => a - b);
console.log(JSON.stringify({ load_ms: loads, run_ms: xs[Math.floor(xs.length / 2)] }));
