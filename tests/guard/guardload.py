# SPDX-License-Identifier: Apache-2.0
"""Load the guard the way src/sandbox/interp/guard.c does, under plain python3:
its parts (src/sandbox/guard/*.py), concatenated in the order of GUARD_PY
(src/sandbox/sandbox.mk), executed once into a fresh namespace that is
never put in sys.modules.  No fork, no seccomp, no audit hook."""

import builtins
import os
import re

GUARD_FILE = "<pyward-guard>"

# A stand-in for the profiles' import allow-list (core/profiles.c).
ALLOWED = frozenset((
    "math", "random", "typing", "string", "collections", "collections.abc",
    "json", "operator", "functools", "dataclasses", "re", "statistics",
    "glob", "tempfile", "uuid",
    "__future__",  # profiles.json "always"
))


def srcdir():
    top = os.environ.get("top_srcdir")
    if top:
        return top
    return os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))


def parts():
    """The guard's parts in load order: GUARD_PY from the environment (as
    make check sets it), or else as sandbox.mk lists them."""
    names = os.environ.get("GUARD_PY", "").split()
    if not names:
        with open(os.path.join(srcdir(), "src/sandbox/sandbox.mk")) as f:
            mk = f.read()
        block = re.search(r"^GUARD_PY = \\\n(.*?)\$\(NULL\)", mk, re.M | re.S)
        names = block.group(1).replace("\\", " ").split()
    return [os.path.join(srcdir(), n) for n in names]


def source():
    out = []
    for p in parts():
        with open(p) as f:
            out.append(f.read())
    return "".join(out)


def runtime_text():
    with open(os.path.join(srcdir(), "rules/runtime.json")) as f:
        return f.read()


def import_check(name):
    if name in ALLOWED:
        return None
    return f"import of '{name}' is not allowed in this sandbox"


def any_below(top):
    return any(n.startswith(top + ".") for n in ALLOWED)


def at_ok(dir_fd, path, flags):
    raise PermissionError("'open' is blocked by the sandbox")


def load(policy=True):
    """A fresh guard namespace, with the C callbacks replaced by the
    stand-ins above and (with POLICY) rules/runtime.json applied as the
    zygote applies it after preload."""
    ns = {"__name__": "pyward_guard", "__builtins__": builtins}
    exec(compile(source(), GUARD_FILE, "exec", dont_inherit=True), ns)
    ns["init"](ALLOWED.__contains__, any_below, import_check, at_ok)
    if policy:
        ns["state"]["builtins"] = ns["make_builtins"]()
        ns["apply_runtime"](runtime_text())
    return ns


def run_tests(scope):
    """Run every test_* function of SCOPE in order of definition and print
    TAP: one point each, a failure's traceback as # lines on stderr."""
    import sys
    import time
    import traceback
    tests = [(n, f) for n, f in scope.items()
             if n.startswith("test_") and callable(f)]
    start = time.monotonic()
    for i, (name, fn) in enumerate(tests, 1):
        try:
            fn()
        except Exception:  # noqa: BLE001 - every failure is a TAP point
            print(f"not ok {i} - {name}")
            for line in traceback.format_exc().splitlines():
                print("# " + line, flush=True)
        else:
            print(f"ok {i} - {name}")
    print(f"1..{len(tests)}")
    ms = (time.monotonic() - start) * 1000
    print(f"# {len(tests)} tests in {ms:.0f} ms", file=sys.stderr)
    return 0
