# SPDX-License-Identifier: Apache-2.0
"""The differential error suite: every program of
tests/programs/faithful/cases/ runs under python3.11 and under `pyward
run`, from the same directory under the same relative name, with stdin
empty.  For each, the exit
status, stdout, the last line of stderr (the error as python3 names it)
and the line numbers of the traceback's frames in the program's own file
must be the same, and so must the traceback's chain: its "Traceback (most
recent call last):" lines and the lines between chained exceptions, in
order (a part whose frames are all library code's keeps its header); a
program whose first line is `# faithful: full` must give byte-identical
stderr.

Kept differences are listed here with their reason, never hidden:
  - Frames of library code (json's decoder, ...) are not shown by pyward:
    the traceback holds the program's own frames only, so the comparison
    is over the program's file (the sandbox's own frames never show).
  - `pyward run -` prints the program's source lines, which python3 cannot
    for a program read from stdin (not in this suite: programs are files).
  - A MemoryError names the limit it hit ("the program exceeded the
    memory limit of 256 MiB"); python3 on the host has no such limit (not
    in this suite: the host may have the memory).
  - A traceback longer than 16000 characters keeps its head and its tail
    (the report's strings are capped): its frame lines must be python3's
    with some left out in the middle.
  - A recursion through a method call hits the limit in the guard's
    attribute read: the "[Previous line repeated N more times]" count is
    2 lower than python3's (the message and the frames are the same).
A case lists its own kept difference with `# known: REASON` (the frame
lines may then be shortened as above) and, if its last line differs,
`# pyward-final: LINE`: then pyward's last line must be LINE exactly.

Two points check what python3 has no counterpart for: a program the rules
reject shows its line, carets and the rule; a MemoryError names the limit.

TAP on stdout, one point per program (a failure shows both sides)."""

import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from tap import plan, point as tap_point  # noqa: E402 - the tests' own module

PYWARD = os.environ.get("PYWARD", "./pyward")
CASES = os.path.join(HERE, "cases")
FRAME = re.compile(r'^[ |]*File "([^"]*)", line (\d+)', re.M)


def point(ok, name, detail=""):
    """A point whose failure shows both sides: 80 lines of detail."""
    tap_point(ok, name, detail, keep=80)


def reference():
    """The python3.11 to compare with: the one pyward embeds (Debian's)
    when it is there."""
    for cand in (os.environ.get("FAITHFUL_PYTHON"), "/usr/bin/python3.11",
                 "python3.11"):
        if not cand:
            continue
        try:
            out = subprocess.run([cand, "-c",
                                  "import sys; print(sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=30)
        except OSError:
            continue
        if out.stdout.strip() == "(3, 11)":
            return cand
    return None


def run(argv, name):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTHON")}
    p = subprocess.run(argv + [name], cwd=CASES, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120, env=env)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def directives(path):
    d = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"# (faithful|known|pyward-final): (.*)", line)
            if not m:
                break
            d[m.group(1)] = m.group(2)
    return d


def last_line(err):
    lines = err.rstrip("\n").split("\n")
    return lines[-1] if lines else ""


def own_lines(err, name):
    """The line numbers of the frames in the program's file, in order."""
    path = os.path.join(CASES, name)
    return [int(ln) for f, ln in FRAME.findall(err) if f == path]


def shortened(full, short):
    """SHORT is FULL with frames left out in the middle (a traceback
    longer than the report's cap keeps its head and its tail)."""
    if len(short) >= len(full):
        return short == full
    return any(short == full[:h] + full[len(full) - (len(short) - h):]
               for h in range(1, len(short)))


CHAIN = re.compile(r"^(Traceback \(most recent call last\):|The above "
                   r"exception was the direct cause of the following "
                   r"exception:|During handling of the above exception, "
                   r"another exception occurred:)$", re.M)


def chain_lines(err):
    """The traceback's headers and the lines between chained exceptions,
    in order: each part of a chain starts with its "Traceback" line, even
    one whose frames are all library code's."""
    return CHAIN.findall(err)


def compare(name, py, pw, d):
    """A list of the differences between python3's run PY and pyward's
    PW (each (status, stdout, stderr))."""
    diffs = []
    if py[0] != pw[0]:
        diffs.append(f"exit status: python3 {py[0]}, pyward {pw[0]}")
    if py[1] != pw[1]:
        diffs.append(f"stdout: python3 {py[1]!r}, pyward {pw[1]!r}")
    want = d.get("pyward-final", last_line(py[2]))
    if last_line(pw[2]) != want:
        diffs.append(f"last line: want {want!r}, pyward "
                     f"{last_line(pw[2])!r}")
    a, b = own_lines(py[2], name), own_lines(pw[2], name)
    if "known" in d and shortened(a, b):
        pass
    elif a != b:
        diffs.append(f"frame lines: python3 {own_lines(py[2], name)}, "
                     f"pyward {own_lines(pw[2], name)}")
    if chain_lines(py[2]) != chain_lines(pw[2]):
        diffs.append(f"chain: python3 {chain_lines(py[2])}, pyward "
                     f"{chain_lines(pw[2])}")
    if d.get("faithful") == "full" and py[2] != pw[2]:
        diffs.append("stderr differs (full comparison)")
    if diffs:
        diffs += ["--- python3 stderr:", py[2], "--- pyward stderr:", pw[2]]
    return diffs


def pyward_only(tmp):
    """What python3 has no counterpart for: a program the rules reject
    (its line, carets under what was found, the rule), a MemoryError that
    names the limit."""
    path = os.path.join(tmp, "rejected.py")
    with open(path, "w") as f:
        f.write("x = 1\nif x:\n    y = eval('x')\n")
    p = subprocess.run([PYWARD, "run", "rejected.py"], cwd=tmp,
                       capture_output=True, text=True, timeout=120)
    lines = p.stderr.split("\n")
    want = [f'  File "{path}", line 3', "    y = eval('x')",
            "        ^^^^^^^^^"]
    point(p.returncode == 1 and lines[:3] == want and
          re.match(r"pyward: PW2\d\d [a-z-]+: .*eval", lines[3]) and
          p.stdout == "",
          "a rejected program: its line, carets and the rule",
          p.stderr)
    path = os.path.join(tmp, "memory.py")
    with open(path, "w") as f:
        f.write("blocks = []\nwhile True:\n    blocks.append(bytearray(1 << 24))\n")
    p = subprocess.run([PYWARD, "run", "--memory", "96m", "memory.py"],
                       cwd=tmp, capture_output=True, text=True, timeout=120)
    point(p.returncode == 1 and p.stderr.endswith(
        "MemoryError: the program exceeded the memory limit of 96 MiB\n")
        and f'File "{path}", line 3, in <module>' in p.stderr,
        "a MemoryError names the limit it hit", p.stderr)


def main():
    ref = reference()
    if ref is None:
        print("1..0 # SKIP no python3.11 to compare with")
        return 0
    print(f"# reference: {ref}")
    names = sorted(os.path.basename(p)
                   for p in glob.glob(os.path.join(CASES, "*.py")))
    same = 0
    for name in names:
        d = directives(os.path.join(CASES, name))
        py = run([ref], name)
        pw = run([PYWARD, "run"], name)
        diffs = compare(name, py, pw, d)
        same += not diffs
        label = name + (" (full)" if d.get("faithful") == "full" else "")
        if "known" in d:
            label += " (kept difference: " + d["known"] + ")"
        point(not diffs, label, "\n".join(diffs))
    point(len(names) >= 60, f"at least 60 programs ({len(names)})")
    with tempfile.TemporaryDirectory() as tmp:
        pyward_only(os.path.realpath(tmp))
    print(f"# {same} of {len(names)} programs as python3.11 shows them")
    return plan()


if __name__ == "__main__":
    sys.exit(main())
