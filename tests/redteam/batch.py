# SPDX-License-Identifier: Apache-2.0
"""Batch grading (one process runs a suite's tests one after the other)
against a process per test, through grade_code in `pyward serve`:

  - the same verdicts (and for programs that print the same every time,
    the same stdout, stderr and message) both ways for every program of
    tests/programs/faithful/cases/, every grading attack of
    tests/redteam/judge/ and every red-team attack of tests/redteam/*/
    (but the folders with a driver of their own) (placeholders filled with
    harmless values, CPU limit 1 s), each on a suite of three tests, in an
    unvalidated server (the runtime's layers alone);
  - a test that ends or taints the batch's process (the memory limit, a
    CPU timeout, the output limit, SIGABRT through os.abort) in test k: tests before it ran in the batch, test k's verdict
    and the one after it are what a process each gives, and the one after
    it ran in a process of its own; an exception, SystemExit or a thread
    that cannot start keeps the batch;
  - the batch attacks of tests/redteam/batch/: each test of a four-test
    suite prints "clean" unless it sees something an earlier test left or
    another test's data; every test must be AC in both modes, with and
    without validation.

TAP on stdout.  usage: batch.py [--only NAME]..."""

import glob
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from serve_client import ServeClient  # noqa: E402 - the tests' own module
from tap import plan, point  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
PROFILES = "basic,filesystem,network,jobe"


class Server(ServeClient):
    def __init__(self, log, args=(), env=None):
        ServeClient.__init__(self, PYWARD, PROFILES, log, args, env)
        _, msg = self.call("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "batch", "version": "1"}})
        if msg is None or "result" not in msg:
            raise RuntimeError("the server did not start")
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def grade(self, code, tests, isolation, profiles=("basic",)):
        """The report of grade_code, or {"error": ...}."""
        suite = {"tests": tests, "isolation": isolation}
        _, msg = self.call("tools/call", {
            "name": "grade_code",
            "arguments": {"code": code, "tests": suite,
                          "profile": list(profiles)}}, wait=300)
        if msg is None or "result" not in msg:
            return {"error": repr(msg)[:300]}
        sc = msg["result"].get("structuredContent")
        return sc if isinstance(sc, dict) else {"error": repr(msg)[:300]}

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=60)


ADDR = re.compile(r"0x[0-9a-fA-F]+")
TIMES = re.compile(r"\d+\.\d+")


def norm(s):
    return TIMES.sub("N", ADDR.sub("0x?", s or ""))


def summary(report, full):
    """Per test: the verdict, and with FULL what it printed and its
    message (addresses and decimal numbers masked)."""
    if "tests" not in report:
        return [("no report", report.get("error"))]
    out = []
    for t in report["tests"]:
        row = (t.get("verdict"),)
        # A time limit is the CPU's or the wall clock's, whichever the
        # host's load reached first.
        msg = "time limit" if row[0] == "TLE" else norm(t.get("message"))
        if full:
            row += (norm(t.get("stdout")), norm(t.get("stderr")), msg)
        out.append(row)
    return out


def isolations(report):
    return [t.get("isolation") for t in report.get("tests", [])]


def near_limit(batch, fresh, tests):
    """The tests whose verdicts differ only as TLE against another, the
    other having used at least half of its CPU limit: a program that close
    to its limit meets it or not as the host's load goes, either way."""
    out = set()
    for i, (x, y) in enumerate(zip(batch.get("tests", []),
                                   fresh.get("tests", []))):
        v = {x.get("verdict"), y.get("verdict")}
        if len(v) == 2 and "TLE" in v:
            other = x if x.get("verdict") != "TLE" else y
            if (other.get("cpu_time") or 0) >= 0.5 * tests[i]["timeout"]:
                out.add(i)
    return out


def both_ways(server, name, code, tests, profiles=("basic",), full=True):
    batch = server.grade(code, tests, "batch", profiles)
    fresh = server.grade(code, tests, "process", profiles)
    a, b = summary(batch, full), summary(fresh, full)
    near = near_limit(batch, fresh, tests)
    if near:
        print("# %s: tests %s near their CPU limit" % (name, sorted(near)))
        a = [r for i, r in enumerate(a) if i not in near]
        b = [r for i, r in enumerate(b) if i not in near]
    point(a == b and (not a or "no report" not in a[0][0:1]),
          "%s: batch and process give the same" % name,
          "batch:   %r\nprocess: %r" % (a, b))
    return batch


def header(path):
    head = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("# ") or ":" not in line:
                break
            k, _, v = line[2:].partition(":")
            head.setdefault(k.strip(), v.strip())
    return head


def own_driver(folder):
    """True for a folder of attacks with a driver of its own (a .sh), as
    redteam.py skips them: checked otherwise than by running."""
    return bool(glob.glob(os.path.join(folder, "*.sh")))


def redteam_code(path, tmp):
    """An attack with its placeholders given harmless values."""
    with open(path, encoding="utf-8") as f:
        code = f.read()
    subs = {"@SECRET_FILE@": os.path.join(tmp, "secret"),
            "@SECRET_DIR@": tmp, "@OUTSIDE@": os.path.join(tmp, "out"),
            "@OUTSIDE_DIR@": tmp, "@TOKEN@": "batchtoken", "@PORT@": "9",
            "@TESTPID@": "1", "@ENV_NAME@": "PYWARD_BATCH_NONE",
            "@LEAK@": "LEAKMARK", "@HOSTNAME@": "nohost",
            "@PYWARD_EXE@": "/nonexistent/pyward"}
    for k, v in subs.items():
        code = code.replace(k, v)
    return code


def t_suites(server, tmp, only):
    """Every program of the three suites, both ways."""
    three = [{"name": "t%d" % i, "stdin": "", "expected_stdout": "",
              "timeout": 2} for i in range(3)]
    cases = os.path.join(TOP, "tests/programs/faithful/cases")
    for path in sorted(glob.glob(os.path.join(cases, "*.py"))):
        name = "faithful/" + os.path.basename(path)[:-3]
        if only and name not in only:
            continue
        with open(path, encoding="utf-8") as f:
            both_ways(server, name, f.read(), three)
    for path in sorted(glob.glob(os.path.join(HERE, "judge", "*.py"))):
        name = "judge/" + os.path.basename(path)[:-3]
        if only and name not in only:
            continue
        with open(path, encoding="utf-8") as f:
            code = f.read().replace("@SUITE@", os.path.join(tmp, "suite"))
        both_ways(server, name, code, three)
    for path in sorted(glob.glob(os.path.join(HERE, "*", "*.py"))):
        name = "redteam/" + os.path.relpath(path, HERE)[:-3]
        if only and name not in only or own_driver(os.path.dirname(path)):
            continue
        head = header(path)
        profiles = head.get("profile", "basic").split()
        if not set(profiles) <= set(PROFILES.split(",")):
            continue
        tests = [{"name": "t%d" % i, "stdin": head.get("stdin", "") + "\n",
                  "expected_stdout": "", "timeout": 1,
                  "memory": head.get("memory", "256m")} for i in range(3)]
        both_ways(server, name, redteam_code(path, tmp), tests, profiles,
                  full=False)


# Test K of each suite below ends or taints the batch's process.
ENDINGS = {
    "memory limit": ("x = bytearray(1 << 34)", "MLE"),
    "CPU timeout": ("while True: pass", "TLE"),
    "output limit": ("while True: print('x' * 4096)", "OLE"),
    "SIGABRT (os.abort)": ("import os\nos.abort()", "RE"),
}
KEEPS = {
    # A run cannot start one (RLIMIT_NPROC); the batch would end if one
    # were left running (batch.py).
    "a thread": ("import threading, time\n"
                 "threading.Thread(target=time.sleep, args=(0.5,)).start()",
                 "RE"),
    "an exception": ("raise ValueError(k)", "RE"),
    "SystemExit": ("raise SystemExit(3)", "RE"),
}


def ending_program(body):
    indented = "\n".join("    " + line for line in body.splitlines())
    return ("k = int(input())\n"
            "if k == 2:\n" + indented + "\n"
            "print(k)\n")


def t_fallback(server):
    # Four tests: one process runs them (a suite shares its tests among
    # processes four tests or more each, as many as run at a time).
    tests = [{"name": "t%d" % i, "stdin": "%d\n" % i,
              "expected_stdout": "%d\n" % i, "timeout": 1,
              "memory": "256m"} for i in range(4)]
    for what, (body, verdict) in {**ENDINGS, **KEEPS}.items():
        code = ending_program(body)
        batch = both_ways(server, "test 2: " + what, code, tests)
        iso = isolations(batch)
        got = [t.get("verdict") for t in batch.get("tests", [])]
        want = ["AC", "AC", verdict, "AC"]
        point(got == want, "test 2: %s: verdicts %s" % (what, want),
              repr(got))
        if what in KEEPS:
            point(iso == ["batch"] * 4,
                  "test 2: %s: the batch goes on" % what, repr(iso))
        else:
            point(iso[:2] == ["batch"] * 2 and iso[3:] == ["process"],
                  "test 2: %s: tests 0-1 in the batch, test 3 a process"
                  % what, repr(iso))


def t_attacks(servers, only):
    tests = [{"name": "t%d" % i, "stdin": "%d\n" % i,
              "expected_stdout": "clean\n", "timeout": 2}
             for i in range(1, 5)]
    for path in sorted(glob.glob(os.path.join(HERE, "batch", "*.py"))):
        name = "batch/" + os.path.basename(path)[:-3]
        if only and name not in only:
            continue
        with open(path, encoding="utf-8") as f:
            code = f.read()
        for label, server in servers:
            for iso in ("batch", "process"):
                r = server.grade(code, tests, iso)
                got = [(t.get("verdict"), t.get("stdout"), t.get("message"))
                       for t in r.get("tests", [])]
                point(got and all(v == "AC" for v, _, _ in got),
                      "%s (%s, %s): every test clean" % (name, label, iso),
                      repr(got or r)[:2000])


def main():
    only = set()
    args = sys.argv[1:]
    fallback = True
    while args[:1] in (["--only"], ["--no-fallback"]):
        if args[0] == "--no-fallback":
            fallback = False
            args = args[1:]
            continue
        only.add(args[1])
        args = args[2:]
    with tempfile.TemporaryDirectory() as tmp, \
            open(os.path.join(tmp, "serve.log"), "w") as log:
        if only != {"fallback"}:
            raw = Server(log, ["--skip-validation"])
            checked = Server(log)
            try:
                t_suites(raw, tmp, only)
                t_attacks([("validated", checked), ("unvalidated", raw)],
                          only)
            finally:
                checked.close()
                raw.close()
        if fallback and (not only or only == {"fallback"}):
            extra = Server(log, ["--skip-validation"],
                           {"PYWARD_ALLOWED_IMPORTS": "os,threading,time"})
            try:
                t_fallback(extra)
            finally:
                extra.close()
    return plan()


if __name__ == "__main__":
    sys.exit(main())
