# SPDX-License-Identifier: Apache-2.0
"""bench-judge.py - `pyward judge` on a suite of 40 tests, and the same
suite through grade_code in a running `pyward serve` (no start-up), each
in the default mode (batch grading: one process runs the tests one after
the other, doc/GRADING.md) and with "isolation": "process" (a fresh
process per test), next to what a grader that spawns python3 once per
test does, measured in the same run: 40 `python3 -I -S prog.py` one after
the other, and as many at a time as the judge runs (the CPUs).  Each
figure is the median of ROUNDS rounds of the whole suite; the ratio is
spawn time over pyward's, printed next to the target (10x for the
default mode).  Last, the floor of any grader that forks a process per
test from a warm interpreter: this benchmark's own python3 forks a child
per test that runs the program on its input through pipes, with no
sandbox at all, and the best ratio that reaches.

usage: python3 bench-judge.py PYWARD [ROUNDS] [TESTS]"""

import concurrent.futures
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAM = """n = int(input())
total = 0
for i in range(1, n + 1):
    total += i * i
print(total)
"""


def suite(count, isolation="batch"):
    tests = []
    for k in range(count):
        n = 1000 + 37 * k
        tests.append({"name": "t%d" % k, "stdin": "%d\n" % n,
                      "expected_stdout": "%d\n" % sum(i * i for i in
                                                       range(1, n + 1))})
    return {"tests": tests, "isolation": isolation}


def time_judge(pyward, suite_path, prog_path):
    t0 = time.perf_counter()
    p = subprocess.run([pyward, "judge", "--json", suite_path, prog_path],
                       capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0 or json.loads(p.stdout)["verdict"] != "AC":
        sys.exit("judge failed: %s %s" % (p.stdout[:300], p.stderr[:300]))
    return dt


class Server:
    """`pyward serve` over stdio, initialized; grade() times one call."""

    def __init__(self, pyward):
        self.p = subprocess.Popen([pyward, "serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.n = 0
        self.call("initialize", {"protocolVersion": "2025-06-18",
                                 "capabilities": {},
                                 "clientInfo": {"name": "bench",
                                                "version": "0"}})
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "method":
                                       "notifications/initialized"}) + "\n")

    def call(self, method, params):
        self.n += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.n,
                                       "method": method,
                                       "params": params}) + "\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def grade(self, suite, code):
        t0 = time.perf_counter()
        r = self.call("tools/call", {"name": "grade_code", "arguments":
                                     {"code": code, "tests": suite}})
        dt = time.perf_counter() - t0
        if r["result"]["structuredContent"]["verdict"] != "AC":
            sys.exit("grade_code failed: %s" % json.dumps(r)[:300])
        return dt

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def spawn_one(python, prog_path, test):
    p = subprocess.run([python, "-I", "-S", prog_path], input=test["stdin"],
                       capture_output=True, text=True)
    if p.stdout != test["expected_stdout"]:
        sys.exit("python3 gave a wrong answer")


def time_spawn(python, prog_path, tests, jobs):
    t0 = time.perf_counter()
    if jobs == 1:
        for t in tests:
            spawn_one(python, prog_path, t)
    else:
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            list(ex.map(lambda t: spawn_one(python, prog_path, t), tests))
    return time.perf_counter() - t0


def fork_one(code, test):
    """A fork of this process running CODE on TEST's input: (pid, the
    read end of its output)."""
    r_in, w_in = os.pipe()
    r_out, w_out = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(r_in, 0)
        os.dup2(w_out, 1)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False))
        exec(code, {"__name__": "__main__"})
        sys.stdout.flush()
        os._exit(0)
    os.close(r_in)
    os.close(w_out)
    os.write(w_in, test["stdin"].encode())
    os.close(w_in)
    return pid, r_out


def fork_done(pid, fd, test):
    out = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        out += chunk
    os.close(fd)
    os.waitpid(pid, 0)
    if out.decode() != test["expected_stdout"]:
        sys.exit("the forked floor gave a wrong answer")


def time_fork(tests, jobs):
    """The whole suite, a fork per test, JOBS at a time."""
    code = compile(PROGRAM, "prog.py", "exec")
    t0 = time.perf_counter()
    running, k = [], 0
    while k < len(tests) or running:
        while k < len(tests) and len(running) < jobs:
            running.append(fork_one(code, tests[k]) + (tests[k],))
            k += 1
        fork_done(*running.pop(0))
    return time.perf_counter() - t0


def main():
    pyward = sys.argv[1] if len(sys.argv) > 1 else "./pyward"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    python = "/usr/bin/python3"
    jobs = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        sp = os.path.join(tmp, "suite.json")
        spp = os.path.join(tmp, "suite-process.json")
        pp = os.path.join(tmp, "prog.py")
        s = suite(count)
        sproc = suite(count, "process")
        with open(sp, "w") as f:
            json.dump(s, f)
        with open(spp, "w") as f:
            json.dump(sproc, f)
        with open(pp, "w") as f:
            f.write(PROGRAM)
        judge, judge_p, served, served_p = [], [], [], []
        seq, par, floor = [], [], []
        server = Server(pyward)
        server.grade(s, PROGRAM)  # the spares of the first call
        server.grade(sproc, PROGRAM)
        for _ in range(rounds):  # interleaved: the host's load hits all
            judge.append(time_judge(pyward, sp, pp))
            judge_p.append(time_judge(pyward, spp, pp))
            served.append(server.grade(s, PROGRAM))
            served_p.append(server.grade(sproc, PROGRAM))
            seq.append(time_spawn(python, pp, s["tests"], 1))
            par.append(time_spawn(python, pp, s["tests"], jobs))
            floor.append(min(time_fork(s["tests"], 1),
                             time_fork(s["tests"], jobs)))
        server.close()
    m = statistics.median(seq)
    mp = statistics.median(par)
    f = statistics.median(floor)
    print("bench-judge: a suite of %d tests, median of %d rounds, %d CPUs"
          % (count, rounds, jobs))
    print("  spawn python3 -I -S, one at a time             %8.1f ms"
          % (m * 1e3))
    print("  spawn python3 -I -S, %d at a time               %8.1f ms"
          % (jobs, mp * 1e3))
    print("  floor: a fork of a warm python3 per test, no sandbox, best of "
          "1 and %d at a time: %.1f ms (x%.1f spawning)" % (jobs, f * 1e3,
                                                           m / f))
    target = 10.0
    for name, v in (("pyward judge, batch (default)", judge),
                     ("pyward judge, a process per test", judge_p),
                     ("grade_code, batch (default)", served),
                     ("grade_code, a process per test", served_p)):
        t = statistics.median(v)
        print("  %-40s %8.1f ms  x%.1f spawning one at a time, x%.1f %d at "
              "a time, x%.1f the floor" % (name, t * 1e3, m / t, mp / t,
                                           jobs, f / t))
    g = statistics.median(served)
    j = statistics.median(judge)
    print("  target: %.0fx spawning one at a time in the default mode: "
          "grade_code x%.1f %s, judge x%.1f %s (judge includes the "
          "command's start)"
          % (target, m / g, "met" if m / g >= target else "NOT met",
             m / j, "met" if m / j >= target else "NOT met"))


if __name__ == "__main__":
    main()
