# SPDX-License-Identifier: Apache-2.0
"""Load the guard the way src/sandbox/interp/guard.c does, under plain
python3: its modules (src/sandbox/interp/guard/*.py, in the order of
GUARD_PY in src/sandbox/sandbox.mk) each compiled under the guard's file
name, loader.py executed into a namespace of its own and its load() making
the other modules, none of them in sys.modules.  No fork, no seccomp, no
audit hook."""

import builtins
import os
import re

GUARD_FILE = "<pyward-guard>"
LOADER = "pyward_guard.loader"

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
    """The guard's module files in load order: GUARD_PY from the
    environment (as make check sets it), or else as sandbox.mk lists
    them."""
    names = os.environ.get("GUARD_PY", "").split()
    if not names:
        with open(os.path.join(srcdir(), "src/sandbox/sandbox.mk")) as f:
            mk = f.read()
        block = re.search(r"^GUARD_PY = \\\n(.*?)\$\(NULL\)", mk, re.M | re.S)
        names = block.group(1).replace("\\", " ").split()
    return [os.path.join(srcdir(), n) for n in names]


def module_name(path):
    """pyward_guard.NAME for .../NAME.py, as guardc names it."""
    return "pyward_guard." + os.path.basename(path)[:-len(".py")]


def sources():
    """[(module name, source text)] in load order."""
    out = []
    for p in parts():
        with open(p) as f:
            out.append((module_name(p), f.read()))
    return out


class Guard:
    """The loaded guard: its modules (by full name), and its names looked
    up as guard[NAME] in the first module (in load order) that binds
    NAME, read live (the attribute policy is bound after loading)."""

    def __init__(self, modules):
        self.modules = modules

    def __getitem__(self, name):
        for m in self.modules.values():
            d = vars(m)
            if name in d:
                return d[name]
        raise KeyError(name)

    def __contains__(self, name):
        return any(name in vars(m) for m in self.modules.values())


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
    """A freshly loaded guard (a Guard), with the C callbacks replaced by
    the stand-ins above and (with POLICY) rules/runtime.json applied as
    the zygote applies it after preload."""
    codes, order = {}, []
    loader = None
    for name, text in sources():
        code = compile(text, GUARD_FILE, "exec", dont_inherit=True)
        if name == LOADER:
            loader = {"__name__": name, "__builtins__": builtins}
            exec(code, loader)
        else:
            codes[name] = code
            order.append(name)
    g = Guard(loader["load"](codes, order))
    g["init"](ALLOWED.__contains__, any_below, import_check, at_ok)
    if policy:
        g["state"]["builtins"] = g["make_builtins"]()
        g["apply_runtime"](runtime_text())
    return g


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
