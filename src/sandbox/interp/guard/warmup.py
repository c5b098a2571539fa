# SPDX-License-Identifier: Apache-2.0
# warmup.py - the zygote's start and a spare child's warm-up
# (trusted code): preload, adapt library paths, freeze, warm up.

import ast
import json
import os
import sys

from pyward_guard.common import CHANNEL_FDS, _real_type, short_repr, state
from pyward_guard.facade import make_facades
from pyward_guard.plots import adapt_plots, display, prerender, warm_plot
from pyward_guard.policy import apply_runtime
from pyward_guard.run import (
    REPORT_JSON, error_info, make_stdio, precompile, variables)
from pyward_guard.safe_builtins import make_builtins


def warmup(plot=False):
    """In a spare child, before any request: walk the paths a run takes
    (compile, exec, error report, variables, JSON) on a sample program so
    their pages are already copied when the request arrives; with PLOT
    (the server saw its client pause), draw a figure too (warm_plot).  A
    generator: the spare stops between two steps when its request
    arrives."""
    sample = (b"total = sum(i * 2 for i in range(10))\n"
              b"words = {'a': [1, 2.5], 'b': (True, None)}\n"
              b"label = f'{total}:{len(words)}'.upper()\n"
              b"label\n1 / 0\n")
    code, error, lines = precompile(sample)
    yield
    g = {"__name__": "__main__", "__doc__": None,
         "__builtins__": state["run_builtins"]}
    try:
        exec(code, g)
    except ZeroDivisionError as e:
        error = error_info(e)
    yield
    REPORT_JSON({"result": short_repr(g.get("$result"), 100),
                 "variables": variables(g), "error": error})
    yield
    np = sys.modules.get("numpy")
    if np is not None:
        # The data-science profile's usual first steps: array creation,
        # a reduction, arithmetic, repr.
        a = np.arange(10)
        short_repr(((a * 2 + 1).sum(), a.mean(), a.reshape(2, 5)), 100)
    if plot:
        yield from warm_plot()


def guard_socket_fds():
    """socket.socket(fileno=FD) refuses the run's own channels: no audit
    event names the fd, and a socket on fd 3 could write the result
    channel.  Libraries pass fds of sockets they made (dup, accept)."""
    import socket
    real_init = socket.socket.__init__

    def __init__(self, family=-1, type=-1, proto=-1, fileno=None):
        if fileno is not None and (_real_type(fileno) is not int or
                                   fileno < CHANNEL_FDS):
            raise PermissionError("socket(fileno=...) on the run's own "
                                  "channels is not allowed in the sandbox")
        real_init(self, family, type, proto, fileno)
    socket.socket.__init__ = __init__


# The modules adapt_modules() changes: preloaded whenever a profile allows
# them, so that no run imports one unadapted.
ADAPTED_MODULES = ("uuid", "socket")


def adapt_modules():
    """In the zygote: library paths that would leave the sandbox's limits
    take their pure-Python way instead.  uuid1 through libuuid asks the
    uuidd daemon over a Unix socket; without it uuid1 uses the time, a
    random clock sequence and a random node id (drawn in each run)."""
    uuid = sys.modules.get("uuid")
    if uuid is not None:
        uuid._generate_time_safe = None
        uuid._GETTERS[:] = [uuid._random_getnode]
        uuid._node = None
    guard_socket_fds()


def static_imports(sources):
    """The modules SOURCES (a program, and a grader's checker program)
    import by name: `import a.b` gives "a.b", `from a import b` "a" and
    "a.b".  A source that does not parse gives none (its run says why)."""
    out = set()
    for src in sources:
        try:
            tree = ast.parse(src)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and \
                    node.module:
                out.add(node.module)
                out.update(f"{node.module}.{a.name}" for a in node.names
                           if a.name != "*")
    return sorted(out)


def patched_packages(runtime):
    """The top-level packages rules/runtime.json or adapt_modules()
    change: they are imported (and changed) in the zygote or not at all."""
    policy = json.loads(runtime)
    names = [e["module"] for e in policy["deny"] + policy["wrap"]]
    names += policy["guarded_exec"] + list(ADAPTED_MODULES)
    return frozenset(n.partition(".")[0] for n in names)


def wanted(name, only, patched):
    """NAME (a profile's module) is preloaded for a program importing
    ONLY: it is one of them, a package of one or a module in one, or in a
    package PATCHED.  ONLY None: every module is."""
    if only is None or name.partition(".")[0] in patched:
        return True
    return any(o == name or o.startswith(name + ".") or
               name.startswith(o + ".") for o in only)


def preload(names, more=(), runtime="{}", only=None):
    """In the zygote: import the profiles' modules once, with no thread
    pools and matplotlib on Agg, then MORE (what they would import lazily
    during a run; failures there are ignored).  With ONLY (the imports of
    the one program this zygote is for: pyward run, judge), just the
    modules it needs (wanted()); a run imports any other module it is
    allowed by itself.  Returns the names of NAMES that failed."""
    import importlib
    patched = patched_packages(runtime)
    names = [n for n in names if wanted(n, only, patched)]
    more = [n for n in more if wanted(n, only, patched)]
    for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
              "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
        os.environ[k] = "1"
    os.environ["MPLBACKEND"] = "Agg"
    missing = []
    for n in names:
        try:
            if n.startswith("matplotlib"):
                import matplotlib
                matplotlib.use("Agg")
            importlib.import_module(n)
        except Exception:  # noqa: BLE001 - not installed or broken
            missing.append(n)
    for n in more:
        try:
            importlib.import_module(n)
        except Exception:  # noqa: BLE001 - optional
            pass
    adapt_modules()
    adapt_plots()
    try:
        prerender()
    except Exception:  # noqa: BLE001 - a warm cache is a courtesy
        pass
    # The format guard's parser, imported before any child needs it.
    importlib.import_module("_string")
    state["stdio"] = make_stdio()
    state["builtins"] = make_builtins()
    apply_runtime(runtime)
    # The run's builtins, copied here rather than in each run (a copy
    # there writes the reference count of every builtin, a page each).
    # The guard keeps state["builtins"] as made, for library namespaces.
    state["run_builtins"] = dict(state["builtins"])
    state["run_builtins"]["display"] = display
    make_facades()
    freeze()
    return missing


def freeze():
    """Move every object to the permanent generation: a collection in a
    child then never walks (and copies) the zygote's pages."""
    import gc
    gc.collect()
    gc.freeze()
