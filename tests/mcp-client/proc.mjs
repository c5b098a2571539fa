// SPDX-License-Identifier: Apache-2.0
// proc.mjs - what the MCP suites read of processes in /proc: parents,
// children by name, descendants, and the numbers of a /proc file's fields.
// Shared by tests/mcp/run.mjs and the client suites of tests/mcp-client.
import { readdirSync, readFileSync } from 'node:fs';

// The parent pid of every process now, by pid.
function parents() {
  const out = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      out.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  return out;
}

// The first number after KEY in /proc/PID/FILE (NaN: no such process or
// key, or not a number, as "unlimited").
export function procField(pid, file, key) {
  try {
    const text = readFileSync(`/proc/${pid}/${file}`, 'utf8');
    const at = text.indexOf(key);
    return at < 0 ? NaN : Number(text.slice(at + key.length).trim().split(/\s+/)[0]);
  } catch {
    return NaN;
  }
}

// The pids of PARENT's children whose comm is NAME.
export function childrenNamed(parent, name) {
  return [...parents()].filter(([pid, pp]) => {
    if (pp !== parent) return false;
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
    } catch {
      return false;
    }
  }).map(([pid]) => pid);
}

// Every descendant pid of PID.
export function descendants(pid) {
  const parent = parents();
  const out = [];
  const walk = (p) => {
    for (const [c, pp] of parent) {
      if (pp === p) { out.push(c); walk(c); }
    }
  };
  walk(pid);
  return out;
}
