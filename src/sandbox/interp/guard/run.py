# SPDX-License-Identifier: Apache-2.0
# run.py - one run in the child (trusted code): compile in the
# zygote, prepare, execute, and the report (result, variables, error).

import _signal
import io
import json
import marshal
import os
import select
import sys

from pyward_guard.common import (
    RUN_FRAMES, _real_type, short_repr, state, str_or)
from pyward_guard.errors import format_error, register_source
from pyward_guard.facade import guarded_open, set_argv, set_open
from pyward_guard.plots import end_of_run, rich_result
from pyward_guard.rewrite import compile_user, own_code
from pyward_guard.views import ModuleView


# A read of the program's stdin waits for input in slices of this many
# seconds, back in the interpreter between them (see StdinFile).
STDIN_SLICE = 0.2


class StdinFile(io.FileIO):
    """fd 0 as the program reads it (sys.stdin.buffer.raw, under a
    BufferedReader as in python3).  A Ctrl-C whose SIGINT lands after
    the interpreter's last check of signals and before the read() system
    call would be noticed only once a line arrives: the read waits for
    input with select() in short slices, so a pending KeyboardInterrupt
    is raised within STDIN_SLICE seconds.  (python3 has the same window;
    `pyward run` relays the signal, which makes landing in it likelier.)"""

    def read(self, size=-1):
        if size is None or size < 0:
            chunks = []
            while True:
                chunk = self.read(65536)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)
        wait_for_stdin()
        return io.FileIO.read(self, size)

    def readall(self):
        return self.read(-1)

    def readinto(self, b):
        wait_for_stdin()
        return io.FileIO.readinto(self, b)


def wait_for_stdin():
    while not select.select((0,), (), (), STDIN_SLICE)[0]:
        pass


def make_stdio():
    enc = dict(encoding="utf-8", errors="backslashreplace")
    stdin = io.BufferedReader(StdinFile(0, "r", closefd=False))
    return (io.TextIOWrapper(stdin, **enc),
            io.TextIOWrapper(io.FileIO(1, "w", closefd=False),
                             line_buffering=True, **enc),
            io.TextIOWrapper(io.FileIO(2, "w", closefd=False),
                             write_through=True, **enc))


def reseed():
    # random reseeds itself from os.urandom in the child (its at-fork
    # hook, run by PyOS_AfterFork_Child); numpy's global state does not.
    np = sys.modules.get("numpy.random")
    if np is not None:
        np.seed(int.from_bytes(os.urandom(4), "little"))


def precompile(src, template_names=False, blob=None):
    """Before the run (parsing is not running): returns (code or None,
    error or None, source lines).  TEMPLATE_NAMES: the run's profiles
    allow names such as __student_answer__ (runtime.json
    "template_names").  BLOB: the server's code_blob() of SRC, loaded
    instead of compiling."""
    lines = src.decode("utf-8", "replace").splitlines()
    state["lines"] = lines
    register_source(src.decode("utf-8", "replace"))
    if blob is not None:
        return own_code(marshal.loads(blob)), None, lines
    try:
        return compile_user(src, template_names), None, lines
    except (SyntaxError, ValueError, OverflowError, RecursionError,
            MemoryError) as e:
        return None, error_info(e), lines


def ready(scratch):
    """In a spare, before its request (and before the audit hook): the
    part of a run's preparation that no request changes, done while the
    spare waits rather than on the request's way.  SCRATCH is the run's
    workspace."""
    state["scratch"] = scratch
    sys.stdin, sys.stdout, sys.stderr = state["stdio"]
    # Ctrl-C under `pyward run` reaches the program as SIGINT: a
    # KeyboardInterrupt, as in python3 (the zygote ignores the signal).
    # The C function: signal.signal's enum conversions would copy a dozen
    # of the zygote's pages in each run.
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    reseed()
    tf = sys.modules.get("tempfile")
    if tf is not None:
        tf.tempdir = scratch
    state["globals"] = {"__name__": "__main__", "__doc__": None,
                        "__builtins__": state["run_builtins"]}


def prepare(compiled, scratch, argv, open_builtin):
    """In the child, before the audit hook: returns (code, globals,
    error).  ARGV is sys.argv for the facade; OPEN_BUILTIN gives the
    program open() on its workspace.  Everything costly was made in the
    zygote, or by ready() in the spare, so the request copies as few
    pages as possible."""
    if state.get("globals") is None or state["scratch"] != scratch:
        ready(scratch)
    code, error, lines = compiled
    state["lines"] = lines
    set_argv(argv)
    set_open(open_builtin)
    g = state["globals"]
    if open_builtin:
        g["__builtins__"]["open"] = guarded_open
    return code, g, error


def next_call(compiled, g, stdin=b""):
    """In a session, after a call: the next call's (code, globals,
    error), its globals the session's G.  STDIN (bytes) is the call's
    standard input: sys.stdin reads it, then end of file."""
    code, error, lines = compiled
    state["lines"] = lines
    state["session"] = True
    # A buffer and its raw file, as python3's sys.stdin has.
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.BytesIO(stdin)),
                                 encoding="utf-8", errors="backslashreplace")
    # sys.__stdin__ is the stdin the call starts with, as in a fresh run.
    if state.get("stdio"):
        state["stdio"] = (sys.stdin,) + tuple(state["stdio"][1:])
    return code, g, error


def interrupts(on):
    """A session's call takes SIGINT (the server's interrupt at its time
    limit) as a KeyboardInterrupt only while its program runs: between
    calls the signal is ignored, so one that comes late never lands in
    the guard's own code or the next call."""
    if state.get("session"):
        _signal.signal(_signal.SIGINT,
                       _signal.default_int_handler if on else
                       _signal.SIG_IGN)


_INT64 = 2 ** 63


def plain_json(v, depth, budget):
    """V as plain JSON data (dict, list, str, int, float, bool, None), or
    ValueError.  Tuples become lists, numpy scalars their Python value."""
    budget[0] -= 1
    t = _real_type(v)
    if budget[0] < 0 or depth > 32:
        raise ValueError("too large")
    if v is None or t is str or t is bool:
        return v
    if t is int and -_INT64 <= v < _INT64:
        return v
    if t is float and v == v and v not in (float("inf"), float("-inf")):
        return v
    if t is list or t is tuple:
        return [plain_json(x, depth + 1, budget) for x in v]
    if t is dict:
        out = {}
        for k, x in v.items():
            if _real_type(k) not in (str, int, float, bool) and k is not None:
                raise ValueError("key")
            out[k] = plain_json(x, depth + 1, budget)
        return out
    if t.__module__ == "numpy" and getattr(v, "ndim", None) == 0:
        return plain_json(v.item(), depth + 1, budget)
    raise ValueError("no JSON form")


def json_text(v):
    """The JSON text of V, or of its repr when it has no JSON form."""
    try:
        text = json.dumps(plain_json(v, 0, [100000]), allow_nan=False)
        if len(text) <= 100000:
            return text
    except BaseException:  # noqa: B036 - user __eq__, __iter__, ...
        pass
    return json.dumps(short_repr(v, 10000))


def reported_value(g):
    """The program's result: the global 'result' if it binds one, else
    the value of a final expression (None when there is neither)."""
    if "result" in g:
        return g["result"]
    return g.get("$result")


def variables(g):
    out = {}
    for k, v in list(g.items()):
        if k.startswith("__") or k.startswith("$") or isinstance(
                v, ModuleView):
            continue
        if len(out) >= 50:
            break
        out[k] = {"type": _real_type(v).__name__,
                  "repr": short_repr(v, 200)}
    return out


def error_info(e):
    name = _real_type(e).__name__
    tb, msg, line = format_error(e)
    return {"type": name, "message": msg, "line": line, "traceback": tb}


# The report's encoder, made in the zygote: json.dumps(..., default=str)
# would make one in each run, copying the pages of the json module's
# objects it reads.
REPORT_JSON = json.JSONEncoder(default=str).encode


def exit_status(code):
    """The exit status python3 gives SystemExit(CODE): None is 0, an int
    is cut to a C long (-1 when out of range) and then to 8 bits, anything
    else is printed to stderr and gives 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        v = int(code)
        return (v if -2**63 <= v < 2**63 else -1) & 0xff
    sys.stderr.write(str_or(code) + "\n")
    return 1


def execute(code, g, error, result_fd):
    """In the child, after every layer is installed: run CODE in G, write
    the program's report (result, variables, error) as one line to
    RESULT_FD and return the exit status.  The server takes the verdict
    from what it observes; this report is program output to it."""
    res = {"result": None, "variables": {}, "error": error}
    status = 1 if error is not None else 0
    g.pop("$result", None)  # a session's last call left its own
    if code is not None:
        # The program's first frame is as deep as python3's: this frame
        # and exec's do not count against it.
        sys.setrecursionlimit(sys.getrecursionlimit() + RUN_FRAMES)
        try:
            try:
                interrupts(True)
                exec(code, g)
            finally:
                interrupts(False)
            value = reported_value(g)
            if value is not None:
                res["result"] = short_repr(value, 10000)
                res["result_json"] = json_text(value)
            if value is not None and "result" not in g:
                rich = rich_result(value)
                if rich is not None:
                    res["result_markdown"] = rich[:100000]
        except SystemExit as e:
            status = exit_status(e.code)
        except BaseException as e:  # noqa: B036 - report everything
            res["error"] = error_info(e)
            status = 1
        # Back to the program's own limit: a session's next call adds
        # RUN_FRAMES again.
        sys.setrecursionlimit(max(sys.getrecursionlimit() - RUN_FRAMES, 1))
        res["variables"] = variables(g)
        try:
            end_of_run()
        except Exception:  # noqa: BLE001 - figures are a courtesy
            pass
    if state.get("batch_end") is not None:
        state["batch_end"](res)  # a batch's test (batch.py)
    # The streams a program may have swapped (sys.stdout = StringIO()),
    # then the run's own.
    for f in (sys.stdout, sys.stderr) + tuple(state.get("stdio", ())[1:]):
        try:
            f.flush()
        except BaseException:  # noqa: B036
            pass
    # Read by the server only in a session (the process stays): a fresh
    # run's status is its exit status, observed.
    res["exit_status"] = status
    data = ("R" + REPORT_JSON(res) + "\n").encode()
    while data:
        data = data[os.write(result_fd, data):]
    return status
