# SPDX-License-Identifier: Apache-2.0
"""The grading attacks (tests/redteam/judge/*.py) through `pyward judge`:
each program tries to make a verdict out of its own words (the expected
answer printed, then a flood, a loop, memory, a refused system call; a
forged report; what a checker program prints to accept; the tests file
read).  Its header names the expected output ("# expected-stdout:"), the
verdicts allowed ("# verdict:", space-separated), and "# checker:
program" when the suite grades it with a checker program; @SUITE@ in the
program is the suite file's path.  Each is judged with and without
validation, through tests/judge/test_judge.py's judge(): the verdict must
be one allowed, never AC, and the exit status 1.

TAP on stdout, one point per attack and mode."""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "judge"))
from tap import plan, point  # noqa: E402 - the tests' own module
from test_judge import judge  # noqa: E402


def header(path):
    h = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("# ") or ":" not in line:
                break
            k, v = line[2:].split(":", 1)
            h[k.strip()] = v.strip()
    return h


def attack(tmp, path):
    name = os.path.basename(path)[:-3]
    suite_path = os.path.join(tmp, "suite.json")
    h = header(path)
    with open(path) as f:
        code = f.read().replace("@SUITE@", suite_path)
    # (One meant to run into its time limit waits it out: 1 s.)
    test = {"stdin": "", "expected_stdout": h["expected-stdout"] + "\n",
            "timeout": 1 if h["verdict"] == "TLE" else 2,
            "memory": "256m"}
    suite = {"tests": [test]}
    if h.get("checker") == "program":
        test["checker"] = "program"
        suite["checker_code"] = (
            "import json\nd = json.loads(input())\n"
            "print('AC' if d['output'] == d['expected'] else 'WA')\n")
    allowed = h["verdict"].split()
    for opts in ([], ["--skip-validation"]):
        rc, doc, out, err = judge(tmp, suite, code, "--json", *opts)
        v = doc["verdict"] if doc else None
        point(v in allowed and v != "AC" and rc == 1,
              "attack %s%s: %s" % (name, " (no validation)"
                                   if opts else "", v), out + err)


def main():
    adir = os.path.join(HERE, "judge")
    for name in sorted(os.listdir(adir)):
        if not name.endswith(".py"):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            try:
                attack(tmp, os.path.join(adir, name))
            except Exception as e:  # a crash of the test is a failure
                point(False, "attack %s runs to the end" % name[:-3],
                      repr(e))
    return plan()


if __name__ == "__main__":
    sys.exit(main())
