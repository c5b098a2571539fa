# SPDX-License-Identifier: Apache-2.0
"""tap.py - TAP for the project's Python test drivers: point() prints one
"ok N - NAME" or "not ok N - NAME" line (the detail of a failure, its
last KEEP lines, as comments before it, on stdout with the points so that
a log keeps them in order), skip() one "ok N - NAME # SKIP WHY", plan()
prints the plan at the end and returns the driver's exit status."""

_count = 0
_failed = 0


def point(ok, name, detail="", keep=30):
    global _count, _failed
    _count += 1
    if not ok:
        _failed += 1
        for line in str(detail).splitlines()[-keep:]:
            print("# " + line, flush=True)
    print(("ok" if ok else "not ok") + " %d - %s" % (_count, name),
          flush=True)


def skip(name, why):
    global _count
    _count += 1
    print("ok %d - %s # SKIP %s" % (_count, name, why), flush=True)


def plan():
    print("1..%d" % _count)
    return 1 if _failed else 0
