# SPDX-License-Identifier: Apache-2.0
"""The call graph between the C files (tests/lint/calls.sh).

calls.py BASELINE FILE.c...: file A calls file B when a function of A
calls, by name, a function B defines without `static` (ctags lists the
definitions; comments and literals are left out of the search, a function
only named, as a callback, is no call; a name defined in more than one
file, such as main, is left out).  TAP points: the check itself, on
planted files; every call points down the
areas (cli -> server -> grade -> {validator, sandbox} -> core), and the
cycles between files are those BASELINE lists, one a line, each written
from its least file, no more (a new cycle fails) and no fewer (a broken
cycle leaves the list).
"""
import os
import re
import subprocess
import sys
import tempfile

BELOW = {
    "cli": {"server", "grade", "validator", "sandbox", "core"},
    "server": {"grade", "validator", "sandbox", "core"},
    "grade": {"validator", "sandbox", "core"},
    "validator": {"core"},
    "sandbox": {"core"},
    "core": set(),
}
TEXT = re.compile(
    r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S
)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")

n = 0
failed = False


def point(good, name, detail=""):
    global n, failed
    n += 1
    print(("ok %d - %s" if good else "not ok %d - %s") % (n, name))
    if not good:
        failed = True
        for line in detail.splitlines():
            sys.stderr.write("# %s\n" % line)


def area(path):
    parts = path.split("/")
    if parts[0] == "validator":
        return "validator"
    return parts[1] if parts[0] == "src" and len(parts) > 2 else ""


def graph(files):
    """{caller file: {called file: {function, ...}}} of FILES."""
    tags = subprocess.run(
        ["ctags", "-f", "-", "--c-kinds=f", "--language-force=C"] + files,
        capture_output=True, text=True, check=True,
    ).stdout
    where = {}
    for line in tags.splitlines():
        fields = line.split("\t")
        if "file:" in fields[3:]:
            continue
        where.setdefault(fields[0], set()).add(fields[1])
    defs = {name: f.pop() for name, f in where.items() if len(f) == 1}

    calls = {}
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as src:
            text = TEXT.sub(" ", src.read())
        for m in CALL.finditer(text):
            to = defs.get(m.group(1))
            if to and to != f:
                calls.setdefault(f, {}).setdefault(to, set()).add(m.group(1))
    return calls


def upward(calls):
    """The calls against the areas' direction, one line each."""
    wrong = []
    for a in sorted(calls):
        for b in sorted(calls[a]):
            if area(a) != area(b) and area(b) not in BELOW.get(area(a), ()):
                wrong.append("%s -> %s (%s)" % (a, b, ", ".join(sorted(calls[a][b]))))
    return wrong


def find_cycles(calls):
    """The simple cycles, each once: from its least file, through files
    greater than it."""
    cycles = set()

    def walk(start, path, seen):
        for w in sorted(calls.get(path[-1], ())):
            if w == start:
                cycles.add(" -> ".join(path + [start]))
            elif w > start and w not in seen:
                seen.add(w)
                walk(start, path + [w], seen)
                seen.discard(w)

    for s in sorted(calls):
        walk(s, [s], {s})
    return cycles


# Planted: a cycle of two files and a call from core up to sandbox; a
# callback only named, a call in a comment and one in a string are none.
PLANTED = {
    "src/sandbox/a.c": "int pw_a(void) { return pw_b(); }\n",
    "src/sandbox/b.c": "int pw_b(void) { return pw_a(); }\n",
    "src/core/c.c": "int pw_c(void) { return pw_a(); }\n",
    "src/core/d.c": "int pw_d(void) { /* pw_e() */ return 0; }\n"
    "void *pw_f(void) { return (void *)pw_c; }\n",
    "src/core/e.c": "void *pw_e(void) { return \"pw_d()\"; }\n",
}


def main():
    baseline_path, files = sys.argv[1], sys.argv[2:]
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        for path, text in PLANTED.items():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        planted = graph(sorted(PLANTED))
        os.chdir(here)
    found = (sorted((a, b) for a in planted for b in planted[a]),
             upward(planted), sorted(find_cycles(planted)))
    want = ([("src/core/c.c", "src/sandbox/a.c"),
             ("src/sandbox/a.c", "src/sandbox/b.c"),
             ("src/sandbox/b.c", "src/sandbox/a.c")],
            ["src/core/c.c -> src/sandbox/a.c (pw_a)"],
            ["src/sandbox/a.c -> src/sandbox/b.c -> src/sandbox/a.c"])
    point(found == want,
          "the check finds a planted cycle and call upward, and no more",
          "found %r\nwanted %r" % (found, want))

    calls = graph(files)
    wrong = upward(calls)
    point(not wrong, "every call points down the areas", "\n".join(wrong))
    cycles = find_cycles(calls)

    with open(baseline_path, encoding="utf-8") as f:
        known = {
            line.strip() for line in f
            if line.strip() and not line.startswith("#")
        }

    def why(cycle):
        files_ = cycle.split(" -> ")
        return "\n".join(
            "  %s calls %s" % (a, ", ".join(sorted(calls[a][b])))
            for a, b in zip(files_, files_[1:])
        )

    new = sorted(cycles - known)
    point(not new, "no cycle between files beyond %s" % baseline_path,
          "\n".join("%s\n%s" % (c, why(c)) for c in new))
    gone = sorted(known - cycles)
    point(not gone, "every cycle %s lists is still there (else remove it)"
          % baseline_path, "\n".join(gone))
    print("1..%d" % n)


main()
