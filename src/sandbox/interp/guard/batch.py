# SPDX-License-Identifier: Apache-2.0
# batch.py - the tests of a batch, one after the other in one process
# (trusted code).  Before each test: fresh __main__ globals and builtins,
# its stdin, fresh stdout and stderr, the random state reseeded.  After
# it (before its report): its streams closed, its globals and garbage
# kept out of the collector's reach (no finalizer of it runs later, as
# none runs in a fresh process, which ends with _exit), the modules it
# imported forgotten (the next test imports them again), the signal
# handlers, warning filters and recursion limit put back, matplotlib's
# figures closed; and whether the process can still vouch for this test
# (no thread of it left) and the next (the workspace, and state kept in C
# by the modules loaded before the batch, as the batch found them; the
# classes and module namespaces are checked in C, batchstate.c): if not,
# the report asks for the test, and those after it, to run each in a
# fresh process ("rerun").  What can still carry over is listed in
# doc/GRADING.md ("Batch grading").

import _signal
import _thread
import gc
import io
import os
import sys
import warnings

from pyward_guard.common import state
from pyward_guard.facade import set_argv
from pyward_guard.rewrite import rewrite_compile
from pyward_guard.run import reseed

BATCH_SIGNALS = tuple(range(1, 65))


class BatchStdin(io.BytesIO):
    """A test's stdin, as fd 0 reads for a fresh run: a pipe (no seek),
    fd 0, not a terminal."""

    name = 0
    mode = "rb"

    def fileno(self):
        return 0

    def isatty(self):
        return False

    def seekable(self):
        return False

    def writable(self):
        return False

    def seek(self, *args):
        raise OSError(29, "Illegal seek")

    def tell(self):
        raise OSError(29, "Illegal seek")


class BatchSink:
    """sys.stdout and sys.stderr between two tests: nowhere."""

    def write(self, s):
        return len(s)

    def flush(self):
        pass


def batch_stdio(data):
    enc = dict(encoding="utf-8", errors="backslashreplace")
    stdin = io.BufferedReader(BatchStdin(data))
    return (io.TextIOWrapper(stdin, **enc),
            io.TextIOWrapper(io.FileIO(1, "w", closefd=False),
                             line_buffering=True, **enc),
            io.TextIOWrapper(io.FileIO(2, "w", closefd=False),
                             write_through=True, **enc))


def batch_handlers():
    out = {}
    for s in BATCH_SIGNALS:
        try:
            out[s] = _signal.getsignal(s)
        except (ValueError, OSError):
            pass
    return out


def batch_files():
    """The workspace as (path, size, mtime) of each entry, for the runs
    whose capabilities let a program write there; () for the others."""
    if not state.get("batch_writes"):
        return ()
    out = []
    todo = ["."]
    while todo and len(out) < 4096:
        d = todo.pop()
        try:
            with os.scandir(d) as it:
                for e in it:
                    st = e.stat(follow_symlinks=False)
                    out.append((d + "/" + e.name, st.st_size, st.st_mtime_ns))
                    if e.is_dir(follow_symlinks=False):
                        todo.append(d + "/" + e.name)
        except OSError:
            out.append((d, -1, -1))
    return tuple(sorted(out))


def batch_argv():
    facade = state.get("facades", {}).get("sys")
    if facade is None:
        return None
    values = object.__getattribute__(facade, "_Facade__values")
    return list(values["argv"]) if "argv" in values else None


def batch_c_state():
    """State kept in C by modules loaded before the batch, which their
    public functions change: decimal's template contexts, csv's dialects
    and field size limit, the ABC registrations (abc's cache token)."""
    out = []
    dec = sys.modules.get("decimal")
    if dec is not None:
        out.append(tuple(repr(getattr(dec, n, None)) for n in
                         ("DefaultContext", "BasicContext", "ExtendedContext")))
    csv = sys.modules.get("_csv")
    if csv is not None:
        out.append((tuple(sorted(csv.list_dialects())),
                    csv.field_size_limit()))
    abc = sys.modules.get("abc")
    if abc is not None:
        out.append(abc.get_cache_token())
    return out


def batch_warnings():
    """The warnings compiling the program gave (printed for the first
    test, as a fresh process prints them before its program runs)."""
    src = "\n".join(state.get("lines", ())) + "\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rewrite_compile(src)
        except Exception:  # noqa: BLE001 - an error was the run's own
            return []
    return caught


def batch_begin(writes, compiled_here):
    """Before the first test: what every test starts from."""
    state["batch"] = {
        "warnings_given": batch_warnings() if compiled_here else [],
        "modules": dict(sys.modules),
        "builtins": dict(state["globals"]["__builtins__"]),
        "recursion": sys.getrecursionlimit(),
        "handlers": batch_handlers(),
        "warnings": list(warnings.filters),
        "threads": _thread._count(),
        "argv": batch_argv(),
    }
    state["batch_writes"] = writes
    state["batch"]["files"] = batch_files()
    state["batch"]["c_state"] = batch_c_state()
    state["batch_end"] = batch_end


def batch_test(prepared, data, writes, compiled_here):
    """Before a test: its (code, globals, error), with STDIN bytes DATA
    (WRITES: the run may write to its workspace); None when what the tests
    before it left cannot be vouched for (a file of the workspace changed,
    state kept in C changed): it must run in a fresh process."""
    code, g, error = prepared
    first = "batch" not in state
    if first:
        batch_begin(writes, compiled_here)
    b = state["batch"]
    if b["files"] != batch_files() or b["c_state"] != batch_c_state():
        return None
    g = {"__name__": "__main__", "__doc__": None,
         "__builtins__": dict(b["builtins"])}
    state["globals"] = g
    stdio = batch_stdio(data)
    state["stdio"] = stdio
    sys.stdin, sys.stdout, sys.stderr = stdio
    for w in b["warnings_given"] if not first else ():
        try:
            warnings.showwarning(w.message, w.category, w.filename,
                                 w.lineno, None, w.line)
        except Exception:  # noqa: BLE001
            pass
    state["saved_figures"] = set()
    random_mod = sys.modules.get("random")
    if random_mod is not None:
        random_mod.seed()
    reseed()
    return code, g, error


def batch_restore():
    b = state["batch"]
    mods = b["modules"]
    for k in [k for k in sys.modules if k not in mods]:
        del sys.modules[k]
    for k, v in mods.items():
        if sys.modules.get(k) is not v:
            sys.modules[k] = v
    for s, h in b["handlers"].items():
        try:
            if _signal.getsignal(s) is not h:
                _signal.signal(s, h)
        except (ValueError, OSError, TypeError):
            pass
    warnings.filters[:] = b["warnings"]
    warnings._filters_mutated()
    sys.setrecursionlimit(b["recursion"])
    if b["argv"] is not None:
        set_argv(b["argv"])
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


def batch_end(res):
    """After a test, before its report RES is written: the test's
    streams flushed and closed, its state undone; RES["rerun"] when the
    process cannot vouch for the next test."""
    g = state["globals"]
    for f in (sys.stdout, sys.stderr) + tuple(state["stdio"][1:]):
        try:
            f.flush()
        except BaseException:  # noqa: B036 - the program's own streams
            pass
    sink = BatchSink()
    sys.stdout = sys.stderr = sink
    for f in state["stdio"]:
        try:
            f.close()
        except BaseException:  # noqa: B036
            pass
    # What the test left is never freed, as in a fresh process (which
    # ends with _exit): its globals are kept, and every object alive now,
    # garbage included, is moved out of the collector's reach, so that no
    # finalizer of this test runs during the next one.
    state.setdefault("batch_kept", []).append(g)
    gc.freeze()
    b = state["batch"]
    # A thread of the test still running: the test's own result is not
    # what a fresh process gives (python3 waits for it at exit).
    rerun = _thread._count() != b["threads"]
    try:
        batch_restore()
    except BaseException:  # noqa: B036 - state the guard cannot undo
        rerun = True
    if rerun:
        res["rerun"] = True
