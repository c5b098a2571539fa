# SPDX-License-Identifier: Apache-2.0
"""`pyward judge` end to end: each test suite below is written to a
temporary directory, judged by the real binary in the real sandbox, and
the verdicts, diffs, points, formats and exit statuses are checked.  The
grading attacks are the red team's (tests/redteam/judge.py), judged with
judge() below.

TAP on stdout, one point per check."""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tap import plan, point, skip  # noqa: E402 - the tests' own module

PYWARD = os.environ.get("PYWARD", "./pyward")


def judge(tmp, suite, program, *opts):
    """Returns (exit status, parsed --json output or None, stdout, stderr)."""
    sp = os.path.join(tmp, "suite.json")
    with open(sp, "w") as f:
        f.write(suite if isinstance(suite, str) else json.dumps(suite))
    pp = os.path.join(tmp, "prog.py")
    with open(pp, "w") as f:
        f.write(program)
    p = subprocess.run([PYWARD, "judge", *opts, sp, pp], capture_output=True,
                       text=True, timeout=120)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return p.returncode, doc, p.stdout, p.stderr


def verdicts(doc):
    return [t["verdict"] for t in doc["tests"]] if doc else None


SUM = "a, b = map(int, input().split())\nprint(a + b)\n"


def t_accepted(tmp):
    suite = {"tests": [
        {"name": "one", "stdin": "1 2\n", "expected_stdout": "3\n"},
        {"name": "two", "stdin": "-5 2\n", "expected_stdout": "-3\n",
         "points": 3}]}
    rc, doc, out, err = judge(tmp, suite, SUM, "--json")
    point(rc == 0 and doc and doc["verdict"] == "AC", "all pass: AC, exit 0",
          out + err)
    point(doc and doc["passed"] == 2 and doc["total"] == 2 and
          doc["points"] == 4 and doc["fraction"] == 1,
          "all pass: passed, total, points, fraction", out)
    point(doc and [t["name"] for t in doc["tests"]] == ["one", "two"] and
          all(t["time"] > 0 and t["memory_kb"] > 0 for t in doc["tests"]),
          "per test: name in order, time, memory", out)


def t_wrong_answer(tmp):
    suite = {"tests": [
        {"name": "right", "stdin": "1 2\n", "expected_stdout": "3\n"},
        {"name": "wrong", "stdin": "1 1\n", "expected_stdout": "3\n",
         "points": 2}]}
    rc, doc, out, err = judge(tmp, suite, SUM, "--json")
    point(rc == 1 and doc and doc["verdict"] == "WA" and
          verdicts(doc) == ["AC", "WA"], "a wrong answer: WA, exit 1",
          out + err)
    w = doc["tests"][1] if doc else {}
    point(w.get("diff") == 'line 1: expected "3", got "2"',
          "WA: a short diff", out)
    point(doc and doc["points"] == 1 and doc["max_points"] == 3 and
          abs(doc["fraction"] - 1 / 3) < 1e-9, "WA: points and fraction",
          out)
    rc, _, out, _ = judge(tmp, suite, SUM)
    point(rc == 1 and "verdict WA: 1 of 2 passed" in out and
          'expected "3", got "2"' in out, "the table by default", out)


def t_checkers(tmp):
    cases = [
        ("exact", "2\n", "2", "WA", "the output has an extra final newline"),
        ("exact", "2", "2\n", "WA", "the output lacks the final newline"),
        ("exact", "2\n", "2\n", "AC", None),
        ("whitespace", "2\n", "2   \n\n\n", "AC", None),
        ("whitespace", "2\n", " 2\n", "WA", None),
        ("tokens", "2\n", "  2 \n", "AC", None),
        ("tokens", "2\n", "2 2\n", "WA", 'token 2: expected "2", got '
         'nothing'),
        ("float", "2\n", "2.0000001\n", "AC", None),
        ("float", "2\n", "2.1\n", "WA", None),
    ]
    for checker, prog_out, want, verdict, diff in cases:
        suite = {"tests": [{"stdin": "1 1\n", "expected_stdout": want,
                            "checker": checker}]}
        prog = "input()\nprint(%r, end='')\n" % prog_out
        rc, doc, out, err = judge(tmp, suite, prog, "--json")
        got = doc["tests"][0] if doc else {}
        ok = got.get("verdict") == verdict and (
            diff is None or got.get("diff") == diff)
        point(ok, "checker %s: %r against %r is %s" % (checker, prog_out,
                                                      want, verdict),
              out + err)
    suite = {"defaults": {"checker": "float", "tolerance": 0.5},
             "tests": [{"expected_stdout": "2"}]}
    rc, doc, out, _ = judge(tmp, suite, "print(2.4)\n", "--json")
    point(verdicts(doc) == ["AC"], "defaults: a tolerance for every test",
          out)


def t_limits(tmp):
    suite = {"defaults": {"timeout": 1, "memory": "256m"}, "tests": [
        {"name": "fine", "stdin": "1\n", "expected_stdout": "1\n"},
        {"name": "slow", "stdin": "2\n", "expected_stdout": "2\n"},
        {"name": "big", "stdin": "3\n", "expected_stdout": "3\n"},
        {"name": "loud", "stdin": "4\n", "expected_stdout": "4\n"},
        {"name": "fails", "stdin": "5\n", "expected_stdout": "5\n"}]}
    prog = ("k = int(input())\n"
            "print(k)\n"
            "if k == 2:\n    while True: pass\n"
            "if k == 3:\n    x = bytearray(1 << 33)\n"
            "if k == 4:\n    while True: print('x' * 4096)\n"
            "if k == 5:\n    {}['missing']\n")
    rc, doc, out, err = judge(tmp, suite, prog, "--json", "--jobs", "2")
    point(verdicts(doc) == ["AC", "TLE", "MLE", "OLE", "RE"],
          "TLE, MLE, OLE, RE next to an AC, in test order", out + err)
    point(doc and doc["verdict"] == "TLE" and rc == 1,
          "overall: the first non-AC in test order", out)
    msg = doc["tests"][4].get("message") if doc else ""
    point(msg == "KeyError: 'missing'", "RE: the error's last line", msg)
    line = doc["tests"][4].get("line") if doc else None
    point(line == 10, "RE: the line of the program it was raised on", line)
    rc, _, out, _ = judge(tmp, suite, prog, "--jobs", "2")
    point("RE" in out and "KeyError: 'missing' (line 10)" in out,
          "RE in the table: python3's last line and the program's line", out)
    rc, doc, out, err = judge(tmp, suite, prog, "--coderunner", "--jobs", "2")
    got = [r[4] for r in doc["testresults"][1:]] if doc else []
    point(len(got) == 5 and got[0] == "1\n" and
          got[1] == "2\n***Time limit exceeded***\n" and
          got[2] == "3\n***Memory limit exceeded***\n" and
          got[3].endswith("\n***Output limit exceeded***\n") and
          got[4].startswith("5\n***Error***\nTraceback (most recent call "
                            "last):\n  File \"prog.py\", line 10") and
          got[4].endswith("KeyError: 'missing'\n"),
          "--coderunner Got: the output, then the error or the limit",
          json.dumps(got)[:2000] + err)


CPU_PROG = ("import time\n"
            "k = int(input())\n"
            "if k == 1:\n"
            "    n = 0\n"
            "    for i in range(ROUNDS):\n"
            "        n += i\n"
            "    print(n > 0)\n"
            "elif k == 2:\n"
            "    while True: pass\n"
            "else:\n"
            "    time.sleep(30)\n")


def burners(cpu, count):
    """COUNT processes spinning on CPU, pinned to it."""
    return [subprocess.Popen(
        [sys.executable, "-c", "while True: pass"],
        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
        for _ in range(count)]


def t_cpu_time(tmp):
    """A test's timeout is CPU time: on a CPU shared with busy processes
    (one spinning beside it, and a test of the same suite spinning to its
    own limit), a test whose computation needs less CPU than its limit
    passes though its wall time is over it, and a test that sleeps stops
    at the wall clock's multiple."""
    rounds = 2000000
    prog = CPU_PROG.replace("ROUNDS", str(rounds))
    quiet = {"tests": [{"name": "compute", "stdin": "1\n",
                        "expected_stdout": "True\n", "timeout": 10}]}
    rc, doc, out, err = judge(tmp, quiet, prog, "--json")
    if not doc or doc["verdict"] != "AC":
        point(False, "CPU time: the computation alone", out + err)
        return
    cpu = doc["tests"][0]["cpu_time"]
    # Twice what it needs: on a CPU shared three ways it takes about 1.5
    # times its limit in wall time, under the wall clock's three times.
    limit = round(max(cpu * 2, 0.1), 3)
    cpu0 = sorted(os.sched_getaffinity(0))[0]
    for iso in ("batch", "process"):
        suite = {"isolation": iso, "tests": [
            {"name": "spin", "stdin": "2\n", "expected_stdout": "",
             "timeout": 1},
            {"name": "compute", "stdin": "1\n", "expected_stdout": "True\n",
             "timeout": limit},
            {"name": "sleep", "stdin": "3\n", "expected_stdout": "",
             "timeout": 0.5}]}
        sp = os.path.join(tmp, "suite.json")
        with open(sp, "w") as f:
            json.dump(suite, f)
        pp = os.path.join(tmp, "prog.py")
        with open(pp, "w") as f:
            f.write(prog)
        busy = burners(cpu0, 1)
        try:
            p = subprocess.run(
                [PYWARD, "judge", "--json", "--jobs", "3", sp, pp],
                capture_output=True, text=True, timeout=120,
                preexec_fn=lambda: os.sched_setaffinity(0, {cpu0}))
        finally:
            for b in busy:
                b.kill()
                b.wait()
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
        point(verdicts(doc) == ["TLE", "AC", "TLE"],
              "CPU time (%s): a spinning test TLE, a computation under its "
              "CPU limit AC on a busy CPU, a sleeping one TLE" % iso,
              p.stdout + p.stderr)
        if not doc:
            continue
        t = doc["tests"][1]
        # What the load did to the wall clock (not asserted: a host may
        # give the test more than its share).
        print("# %s: compute used %.3f s of CPU in %.3f s (limit %.3f s)"
              % (iso, t["cpu_time"], t["time"], limit))
        msg = doc["tests"][2].get("message") or ""
        point("wall-clock limit of 1.5 s" in msg,
              "CPU time (%s): the sleeping test stopped at three times its "
              "limit" % iso, msg)


def t_compile_errors(tmp):
    suite = {"tests": [{"expected_stdout": "x"}, {"expected_stdout": "y"}]}
    rc, doc, out, err = judge(tmp, suite, "import os\nprint(os.getcwd())\n",
                              "--json")
    point(rc == 1 and doc and doc["verdict"] == "CE" and
          verdicts(doc) == ["CE", "CE"] and
          "PW101" in doc["compile_errors"][0], "rejected by the rules: CE",
          out + err)
    point(doc and doc.get("compile_errors_plain") ==
          ["line 1: this course's sandbox does not allow importing 'os'"],
          "CE in plain words beside the teacher's", out)
    jargon = ("PW", "profile", "get_sandbox_info", "pyward rules")
    for prog in ("import os\nprint(os.getcwd())\n",
                 "import numpy\nprint(numpy.pi)\n",
                 "print(eval('1'))\n", "x = ().__class__.__bases__\n",
                 "import sys\nsys.__stdout__ = None\n"):
        for fmt in ([], ["--coderunner"]):
            rc, _, out, err = judge(tmp, suite, prog, *fmt)
            said = [w for w in jargon if w in out]
            point(rc == 1 and not said and "sandbox does not allow" in out,
                  "what a student reads of a CE names no rule, tool or "
                  "profile (%s, %s)" % (prog.split("\n")[0],
                                        fmt[0] if fmt else "table"),
                  "%s %s %s" % (said, out, err))
    rc, doc, out, err = judge(tmp, suite, "def f(:\n  pass\n", "--json")
    point(doc and doc["verdict"] == "CE" and
          doc["compile_errors"][0].startswith("1:7: PW001"),
          "a syntax error: CE with its line", out + err)
    rc, doc, out, err = judge(tmp, suite, "def f(:\n  pass\n", "--json",
                              "--skip-validation")
    point(verdicts(doc) == ["CE", "CE"],
          "a syntax error without validation: CE", out + err)


CHECKER = r'''import json
d = json.loads(input())
got = d["output"].split()
n = int(d["input"])
if len(got) == 2 and int(got[0]) * int(got[1]) == n and int(got[0]) > 1:
    print("AC two factors")
else:
    print("WA not two factors of", n)
'''
FACTOR = ("n = int(input())\nfor d in range(2, n):\n    if n % d == 0:\n"
          "        print(d, n // d)\n        break\nelse:\n    print(n)\n")


CHECKER_LINES = r'''import json
d = json.loads(input())
print("AC" if d["output"].strip() == "2 6" else "WA")
print("first line of feedback")
print("second line")
'''


def t_checker_program(tmp):
    with open(os.path.join(tmp, "check.py"), "w") as f:
        f.write(CHECKER)
    suite = {"checker_program": "check.py", "defaults": {"checker": "program"},
             "tests": [{"stdin": "12"}, {"stdin": "13"}]}
    rc, doc, out, err = judge(tmp, suite, FACTOR, "--json")
    point(verdicts(doc) == ["AC", "WA"], "a checker program decides",
          out + err)
    fb = [t.get("feedback") for t in doc["tests"]] if doc else None
    point(fb == ["two factors", "not two factors of 13"],
          "the checker's feedback", out)
    rc, doc, out, err = judge(tmp, suite, FACTOR, "--coderunner")
    got = [r[4] for r in doc["testresults"][1:]] if doc else []
    point(got == ["2 6\ntwo factors\n", "13\nnot two factors of 13\n"],
          "--coderunner Got: the output, then the checker's feedback",
          out + err)
    lines = dict(suite, checker_code=CHECKER_LINES)
    del lines["checker_program"]
    rc, doc, out, err = judge(tmp, lines, FACTOR, "--json")
    fb = [t.get("feedback") for t in doc["tests"]] if doc else None
    point(fb == ["first line of feedback\nsecond line"] * 2,
          "the checker's feedback: every line after its verdict",
          out + err)
    rc, _, out, _ = judge(tmp, lines, FACTOR)
    point("first line of feedback\n" in out and "     second line\n" in out,
          "the table shows every line of the feedback", out)
    suite["checker_program"] = None
    del suite["checker_program"]
    suite["checker_code"] = "raise ValueError('broken checker')\n"
    rc, doc, out, err = judge(tmp, suite, FACTOR, "--json")
    point(verdicts(doc) == ["IE", "IE"] and
          "broken checker" in doc["tests"][0]["message"],
          "a failing checker: IE, not the program's fault", out + err)
    suite["checker_code"] = "print('maybe')\n"
    rc, doc, out, err = judge(tmp, suite, FACTOR, "--json")
    point(verdicts(doc) == ["IE", "IE"],
          "a checker that says neither AC nor WA: IE", out + err)


def t_coderunner(tmp):
    suite = {"tests": [
        {"name": "one", "stdin": "1 2\n", "expected_stdout": "3\n"},
        {"name": "two", "stdin": "1 1\n", "expected_stdout": "3\n"}]}
    rc, doc, out, err = judge(tmp, suite, SUM, "--coderunner")
    ok = (doc is not None and doc.get("fraction") == 0.5 and
          doc["testresults"][0] == ["iscorrect", "Test", "Input", "Expected",
                                    "Got"] and
          doc["testresults"][1] == [True, "one", "1 2\n", "3\n", "3\n"] and
          doc["testresults"][2] == [False, "two", "1 1\n", "3\n", "2\n"])
    point(ok, "--coderunner: {fraction, testresults}", out + err)


def t_test_limit(tmp):
    """One limit of tests everywhere (grade_code's too): 200."""
    tests = [{"stdin": "", "expected_stdout": "x\n"}] * 200
    rc, doc, out, err = judge(tmp, {"tests": tests}, "print('x')\n",
                              "--json")
    point(rc == 0 and doc and doc["total"] == 200, "200 tests are judged",
          err[-500:])
    rc, doc, out, err = judge(tmp, {"tests": tests + tests[:1]},
                              "print('x')\n", "--json")
    point(rc == 2 and "1 to 200 tests" in err, "201 tests: refused, exit 2",
          err)


def t_order(tmp):
    # Later tests finish first; the report is still in test order.
    tests = [{"name": "t%d" % i, "stdin": "%d\n" % i,
              "expected_stdout": "%d\n" % i} for i in range(8)]
    prog = ("k = int(input())\nx = 0\nfor i in range((8 - k) * 200000):\n"
            "    x += i\nprint(k)\n")
    rc, doc, out, err = judge(tmp, {"tests": tests}, prog, "--json",
                              "--jobs", "4")
    point(doc and [t["name"] for t in doc["tests"]] ==
          ["t%d" % i for i in range(8)] and verdicts(doc) == ["AC"] * 8,
          "parallel runs, results in test order", out + err)


BAD_SUITES = [
    ('{"tests": []}', '"tests" must be a list of 1 to'),
    ('{"tests": [{"stdin": "1"}]}',
     'tests[0]: "expected_stdout" is missing'),
    ('{"tests": [{"name": "x", "expected_stdout": "1", "timeout": -1}]}',
     'tests[0] ("x"): "timeout" must be between'),
    ('{"tests": [{"name": "x", "expected_stdout": "1", "memory": "lots"}]}',
     '"memory" must be a size in bytes'),
    ('{"tests": [{"expected_stdout": "1", "colour": 1}]}',
     '"colour" is not a field of a test'),
    ('{"tests": [{"expected_stdout": "1", "checker": "fuzzy"}]}',
     '"checker" must be one of'),
    ('{"tests": [{"expected_stdout": "1"}], "extra": 1}',
     '"extra" is not a field of a suite'),
    ('{"tests": [{"expected_stdout": "1", "checker": "program"}]}',
     'the "program" checker needs'),
    ('{"tests": [{"expected_stdout": 1}]}',
     '"expected_stdout" must be a string'),
    ('{"tests": [{"expected_stdout": "1"}], "defaults": {"name": "x"}}',
     '"name" belongs to each test'),
    ('[1, 2]', 'a suite is a JSON object'),
    ('{"tests": ', 'suite.json:1:'),
]


def t_bad_suites(tmp):
    for text, want in BAD_SUITES:
        rc, _, out, err = judge(tmp, text, SUM)
        point(rc == 2 and want in err and out == "",
              "a malformed suite: exit 2, %r" % want, err)
    p = subprocess.run([PYWARD, "judge", "only-one-arg"], capture_output=True,
                       text=True)
    point(p.returncode == 2 and "usage: pyward judge" in p.stderr,
          "usage error: exit 2", p.stderr)


def t_light_profiles(tmp):
    """With data_science among the profiles, a program that imports none
    of its packages is judged from a zygote of the light profiles alone:
    numpy, pandas and matplotlib are not loaded for it (each test's
    memory shows it); one that imports numpy gets them."""
    name = "data_science: a program without its packages does not load them"
    has = subprocess.run([sys.executable, "-c", "import numpy, matplotlib"],
                         capture_output=True).returncode == 0
    if not has:
        skip(name, "numpy or matplotlib not installed")
        return
    suite = {"tests": [{"stdin": "3\n", "expected_stdout": "9\n"}]}
    ds = ("--profile", "basic", "--profile", "data_science", "--json")
    _, light, out, err = judge(tmp, suite, "n = int(input())\nprint(n * n)\n",
                               *ds)
    _, full, out2, err2 = judge(tmp, suite, "import numpy\nn = int(input())\n"
                               "print(int(numpy.int64(n) ** 2))\n", *ds)
    ok = light and full and light["verdict"] == full["verdict"] == "AC"
    mem = [d["tests"][0]["memory_kb"] for d in (light, full)] if ok else []
    point(ok and mem[0] * 3 < mem[1], name + " (%s kB against %s)" %
          tuple(mem or ("?", "?")), out + err + out2 + err2)


def main():
    tests = [t_accepted, t_wrong_answer, t_checkers, t_limits, t_cpu_time,
             t_compile_errors, t_checker_program, t_coderunner, t_order,
             t_test_limit, t_bad_suites, t_light_profiles]
    for t in tests:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                t(tmp)
            except Exception as e:  # a crash of the test is a failure
                point(False, "%s runs to the end" % t.__name__, repr(e))
    return plan()


if __name__ == "__main__":
    sys.exit(main())
