# SPDX-License-Identifier: Apache-2.0
# facade.py - modules a program gets as a facade (trusted code): a short
# list of names (rules/runtime.json "facades"), never the module, and
# open() on the run's workspace for the profiles that allow it.

import io
import sys

from pyward_guard.common import (
    RUN_FRAMES, VIEW_KEY, BuiltinMethod, ModuleType, _real_getattr,
    _real_type, exact_str, state)


# Names of a facade the guard makes for each run rather than copying
# them from the module: the run's argv, an exit that raises SystemExit,
# and the standard streams, read live and assignable (a program that
# swaps sys.stdout for a StringIO redirects its own print()s; the run's
# real streams stay with the guard).
STREAMS = ("stdin", "stdout", "stderr")
# sys.__stdin__, __stdout__, __stderr__: the run's own streams (the
# objects sys.stdin, stdout and stderr are when the run starts, nothing
# more), read-only.
STREAM_DUNDERS = {"__stdin__": 0, "__stdout__": 1, "__stderr__": 2}
FACADES = {}  # module name -> tuple of names, set by set_facades()
# The highest recursion limit a program may set (sys.setrecursionlimit
# of the facade): a larger one is taken as this.  Python frames of 3.11
# live on the heap, within the run's memory limit.
RECURSION_LIMIT_MAX = 100000
# Modules of FACADES a run that may open files gets whole (io: its open
# and FileIO are the open() such a run has anyway).
WHOLE_WITH_OPEN = set()


def set_facades(spec, whole_with_open=()):
    FACADES.clear()
    FACADES.update({m: tuple(names) for m, names in spec.items()})
    WHOLE_WITH_OPEN.clear()
    WHOLE_WITH_OPEN.update(whole_with_open)


def set_open(open_builtin):
    """In the child: whether the run has open(), which gives it the
    modules of WHOLE_WITH_OPEN whole."""
    state["whole_modules"] = WHOLE_WITH_OPEN if open_builtin else ()


def facade_exit(status=None, /):
    raise SystemExit(status)


def facade_setrecursionlimit(limit, /):
    """sys.setrecursionlimit as python3 checks its argument, the limit
    capped at RECURSION_LIMIT_MAX; the guard's own frames of a run
    (RUN_FRAMES) come on top, as at the run's start."""
    if not isinstance(limit, int):
        raise TypeError(f"'{_real_type(limit).__name__}' object cannot be "
                        "interpreted as an integer")
    limit = int.__index__(limit)
    if limit < 1:
        raise ValueError("recursion limit must be greater or equal than 1")
    sys.setrecursionlimit(min(limit, RECURSION_LIMIT_MAX) + RUN_FRAMES)


def facade_getrecursionlimit():
    """The limit as the program set it (or python3's default)."""
    return max(sys.getrecursionlimit() - RUN_FRAMES, 1)


def wrap_function(f):
    """A Python function calling F: a builtin's __self__ is its module."""
    def call(*args, **kwargs):
        return f(*args, **kwargs)
    call.__name__ = _real_getattr(f, "__name__", "function")
    call.__doc__ = _real_getattr(f, "__doc__", None)
    return call


def facade_values(mod, names):
    """The values of a facade of MOD; its "argv" is set per run
    (set_argv)."""
    values = {}
    for n in names:
        if n == "argv":
            values[n] = []
        elif n == "exit":
            values[n] = facade_exit
        elif n == "setrecursionlimit":
            values[n] = facade_setrecursionlimit
        elif n == "getrecursionlimit":
            values[n] = facade_getrecursionlimit
        elif n in STREAMS or n in STREAM_DUNDERS:
            continue
        else:
            v = _real_getattr(mod, n, None)
            if v is None or isinstance(v, ModuleType):
                continue
            if isinstance(v, BuiltinMethod):
                v = wrap_function(v)
            values[n] = v
    return values


class Facade:
    """What a program sees of a module listed in FACADES."""

    __slots__ = ("_Facade__mod", "_Facade__name", "_Facade__values")

    def __init__(self, mod, name, values, key=None):
        # type(facade) is reachable: only the guard may make one.
        if key is not VIEW_KEY:
            raise TypeError("module facades cannot be made in the sandbox")
        object.__setattr__(self, "_Facade__mod", mod)
        object.__setattr__(self, "_Facade__name", name)
        object.__setattr__(self, "_Facade__values", values)

    def __getattr__(self, name):
        name = exact_str(name)
        if name in STREAMS and name in FACADES[self.__name]:
            return _real_getattr(self.__mod, name)
        if name in STREAM_DUNDERS and name in FACADES[self.__name]:
            return state["stdio"][STREAM_DUNDERS[name]]
        try:
            return self.__values[name]
        except KeyError:
            pass
        if name == "__all__":
            return sorted(self.__dir__())
        raise AttributeError(
            f"module '{self.__name}' has no attribute '{name}' in the "
            f"sandbox (it offers only: {', '.join(self.__dir__())})")

    def __setattr__(self, name, value):
        name = exact_str(name)
        if name in STREAMS and name in FACADES[self.__name]:
            setattr(self.__mod, name, value)
            return
        raise AttributeError(f"module '{self.__name}' is read-only in the "
                             f"sandbox, except {', '.join(STREAMS)}")

    def __delattr__(self, name):
        raise AttributeError("modules are read-only in the sandbox")

    def __dir__(self):
        return sorted(n for n in FACADES[self.__name]
                      if n in self.__values or n in STREAMS or
                      n in STREAM_DUNDERS)

    def __repr__(self):
        return f"<module '{self.__name}' (sandbox facade)>"


def make_facades():
    """In the zygote: the facades, by module name.  Made once, not per
    run: reading a module's values in a run would copy the pages of
    every one of them (a reference count each) from the zygote."""
    out = {}
    for name, names in FACADES.items():
        mod = sys.modules.get(name)
        if mod is not None:
            out[name] = Facade(mod, name, facade_values(mod, names),
                               VIEW_KEY)
    state["facades"] = out


def set_argv(argv):
    """In the child: ARGV, as the run's facades show it."""
    for facade in state["facades"].values():
        values = object.__getattribute__(facade, "_Facade__values")
        if "argv" in values:
            values["argv"] = list(argv)


def facade_for(mod):
    """(True, the facade or None) if MOD is a facaded module, else
    (False, None).  None: the run's profiles do not allow the module."""
    name = _real_getattr(mod, "__name__", None)
    if not isinstance(name, str) or name not in FACADES or \
            sys.modules.get(name) is not mod or \
            name in state.get("whole_modules", ()):
        return False, None
    if not state["allowed"](name):
        return True, None
    return True, state.get("facades", {}).get(name)


def in_workspace(path):
    """PATH (relative to the workspace, or absolute inside it) with no
    '..' step."""
    parts = path.split("/")
    if ".." in parts or "\0" in path or not path:
        return False
    if path.startswith("/"):
        root = state["scratch"].rstrip("/") + "/"
        return path.startswith(root)
    return True


def guarded_open(file, mode="r", buffering=-1, encoding=None, errors=None,
                 newline=None, closefd=True, opener=None):
    """open() on the run's workspace: a file name, relative to it (or
    absolute inside it), never a descriptor, an opener or a '..' step.
    The audit hook and landlock check the path again."""
    if opener is not None or not closefd:
        raise ValueError("open() takes no opener or closefd in the sandbox")
    if isinstance(file, (bytes, bytearray)):
        file = bytes(file).decode("utf-8", "surrogateescape")
    if not isinstance(file, str):
        raise TypeError("open() takes a file name in the sandbox")
    file = exact_str(file, "file name")
    if not in_workspace(file):
        raise PermissionError(
            13, "open() reaches only the run's own files in the sandbox "
            "(names relative to the working directory, no '..')", file)
    return io.open(file, mode, buffering, encoding, errors, newline)
