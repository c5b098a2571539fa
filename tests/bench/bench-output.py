# SPDX-License-Identifier: Apache-2.0
"""bench-output.py - the cost of how a program's standard output is
buffered toward the server, through execute_code in one `pyward serve`
over JSON-RPC.  pyward makes the program's stdout line-buffered (as on a
terminal) so that what it printed before a timeout or a kill comes back;
this measures that choice against the two others, in the same run and
interleaved:

  line-buffered   the program as pyward runs it
  block-buffered  the same program after
                  sys.stdout.reconfigure(line_buffering=False)
  unbuffered      the same program after sys.stdout.reconfigure(
                  line_buffering=False, write_through=True), as python3 -u

for a program printing LINES short lines and for one printing a single
line.  The baseline is spawning PYTHON -c with the program as pyward
runs it, its stdout a pipe (so block-buffered, python3's default there;
no PYTHON* variable of the environment reaches it); python3 is spawned
line-buffered (sys.stdout.reconfigure(line_buffering=True)) and
unbuffered (-u) too, for its own cost of each.  The programs run in the jobe
profile (the one that allows `import sys`); every answer is checked.
Medians and p90 of the round trip, and the ratio of each median to
pyward's line-buffered one and to python3's to a pipe.  Calls are GAP
seconds apart (the spare pool refills in between, as for calls a model
makes one after the other).

usage: bench-output.py [--rounds N] [--lines N] [--gap S]
(`make bench-output`; PYWARD the binary, PYTHON the interpreter spawned,
default /usr/bin/python3; BENCH_N the rounds)"""

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import ServeClient  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
PROFILE = "jobe"
# The spawned python3 reads no PYTHON* variable (PYTHONUNBUFFERED=1 in
# the caller's environment would make every baseline unbuffered).
SPAWN_ENV = {k: v for k, v in os.environ.items()
             if not k.startswith("PYTHON")}

UNBUFFERED = ("sys.stdout.reconfigure(line_buffering=False, "
              "write_through=True)\n")
# (name, the line the program starts with after `import sys`, what
# sys.stdout's line_buffering and write_through then are)
MODES = (
    ("line-buffered", "", "True False"),
    ("block-buffered", "sys.stdout.reconfigure(line_buffering=False)\n",
     "False False"),
    ("unbuffered", UNBUFFERED, "False True"),
)
# The same for the spawned python3 (name, first line, options): its
# default to a pipe first; -u, as its write_through alone would still
# leave a BufferedWriter under the text layer.
PY_MODES = (
    ("to a pipe", "", []),
    ("line-buffered", "sys.stdout.reconfigure(line_buffering=True)\n", []),
    ("unbuffered (-u)", "", ["-u"]),
)


def program(first, lines):
    body = ("for i in range(%d):\n    print('line', i)\n" % lines
            if lines > 1 else "print('line', 0)\n")
    return "import sys\n" + first + body


def expected(lines):
    return "".join("line %d\n" % i for i in range(lines))


class Server(ServeClient):
    def __init__(self):
        super().__init__(PYWARD, "basic," + PROFILE, sys.stderr)
        self.call("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench-output", "version": "1"}})

    def limits(self):
        _, msg = self.call("tools/call", {"name": "get_sandbox_info",
                                          "arguments": {}})
        return msg["result"]["structuredContent"]["limits"]

    def run(self, code, want):
        t = time.perf_counter()
        _, msg = self.call("tools/call", {
            "name": "execute_code",
            "arguments": {"code": code, "profile": PROFILE}})
        took = time.perf_counter() - t
        if msg is None:
            sys.exit("execute_code: no answer")
        res = msg["result"]
        sc = res.get("structuredContent") or {}
        if res.get("isError") or sc.get("stdout") != want:
            sys.exit("execute_code: wrong answer: %s"
                     % res["content"][0]["text"][:2000])
        return took


def spawn(code, want, opts):
    t = time.perf_counter()
    p = subprocess.run([PYTHON, *opts, "-c", code], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=SPAWN_ENV)
    took = time.perf_counter() - t
    if p.returncode != 0 or p.stdout.decode() != want:
        sys.exit("%s: wrong answer: %s" % (PYTHON, p.stderr.decode()))
    return took


def ms(v):
    return "%.2f ms" % (1000 * v)


def measure(server, lines, rounds, warmup, gap):
    want = expected(lines)
    cases = [("pyward " + m, lambda c=program(first, lines):
               server.run(c, want)) for m, first, _ in MODES]
    cases += [("python3 -c, " + m, lambda c=program(first, lines), o=o:
               spawn(c, want, o)) for m, first, o in PY_MODES]
    times = {name: [] for name, _ in cases}
    for _ in range(warmup):
        for _, f in cases:
            f()
    for r in range(rounds):
        # Each round starts with the next case: none always runs first.
        k = r % len(cases)
        for name, f in cases[k:] + cases[:k]:
            time.sleep(gap)
            times[name].append(f())
    line = statistics.median(times["pyward line-buffered"])
    py = statistics.median(times["python3 -c, to a pipe"])
    print("%d line%s, %d rounds, medians:" % (lines, "s" if lines > 1 else "",
                                              rounds))
    for name, _ in cases:
        xs = sorted(times[name])
        med = statistics.median(xs)
        p90 = xs[int(0.9 * (len(xs) - 1))]
        print("  %-32s median %10s  p90 %10s  x%.2f of line-buffered"
              "  x%.2f of python3" % (name, ms(med), ms(p90), med / line,
                                      med / py))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int,
                    default=int(os.environ.get("BENCH_N") or 30))
    ap.add_argument("--lines", type=int, default=10000)
    ap.add_argument("--gap", type=float, default=0.02)
    opts = ap.parse_args()
    s = Server()
    cap = s.limits().get("max_output_bytes", 0)
    if len(expected(opts.lines)) > cap:
        sys.exit("%d lines are more than the output cap of %d bytes"
                 % (opts.lines, cap))
    with open("/proc/loadavg", encoding="utf-8") as f:
        print("load average: " + " ".join(f.read().split()[:3]))
    print("execute_code through `pyward serve` (profile %s) and %s -c "
          "spawned to a pipe, interleaved, %g ms apart"
          % (PROFILE, PYTHON, 1000 * opts.gap))
    # Each mode is what the sandboxed program's stdout really is.
    for _, first, state in MODES:
        s.run("import sys\n" + first + "print(sys.stdout.line_buffering, "
              "sys.stdout.write_through)", state + "\n")
    measure(s, opts.lines, opts.rounds, 3, opts.gap)
    measure(s, 1, opts.rounds * 3, 10, opts.gap)
    s.p.stdin.close()
    s.p.wait()


if __name__ == "__main__":
    main()
