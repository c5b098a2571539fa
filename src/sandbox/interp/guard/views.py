# SPDX-License-Identifier: Apache-2.0
# views.py - module views and the import guard (trusted code): a
# program gets a read-only view of an allowed module, never the module.

import sys

from pyward_guard import common
from pyward_guard.common import (
    VIEW_KEY, WRAPPED, ModuleType, _real_getattr, _real_import, attr_refused,
    exact_str, is_refused, naming_value, state)
from pyward_guard.facade import facade_for


class ModuleView:
    """Read-only view of an allowed module: public, non-module attributes,
    and allowed submodules as views."""

    __slots__ = ("_ModuleView__m", "_ModuleView__path", "_ModuleView__full")

    def __init__(self, mod, path, full, key=None):
        # type(view) is reachable: only the guard may make a view (a view
        # of any object would read its attributes unguarded).
        if key is not VIEW_KEY:
            raise TypeError("module views cannot be made in the sandbox")
        object.__setattr__(self, "_ModuleView__m", mod)
        object.__setattr__(self, "_ModuleView__path", path)
        object.__setattr__(self, "_ModuleView__full", full)

    def __get(self, name, *default):
        name = exact_str(name)
        try:
            return self.__lookup(name)
        except AttributeError:
            if default:
                return default[0]
            raise

    def __lookup(self, name):
        path = self.__path
        if name == "__all__":  # from module import *
            return [n for n in self.__dir__()
                    if not isinstance(_real_getattr(self.__m, n, None),
                                      ModuleType)
                    and self.__full and
                    n not in common.MODULE_DENY.get(path, ())]
        if attr_refused(name) and name not in common.SAFE_DUNDERS:
            raise AttributeError(f"module '{path}' attribute '{name}' is "
                                 "not allowed in the sandbox")
        value = _real_getattr(self.__m, name)
        if isinstance(value, ModuleType):
            view = module_view(value, f"{path}.{name}")
            if view is not None:
                return view
        elif self.__full and name not in common.MODULE_DENY.get(path, ()) and \
                not is_refused(value):
            if name in common.SAFE_DUNDERS:
                return naming_value(self.__m, name, value)
            return WRAPPED.get((path, name), value)
        raise AttributeError(f"module '{path}' has no attribute '{name}' "
                             "in the sandbox")

    def __getattr__(self, name):
        return self.__get(name)

    def __setattr__(self, name, value):
        raise AttributeError("modules are read-only in the sandbox")

    def __delattr__(self, name):
        raise AttributeError("modules are read-only in the sandbox")

    def __dir__(self):
        return [n for n in dir(self.__m) if not n.startswith("_")]

    def __repr__(self):
        return f"<module '{self.__path}'>"


def module_view(mod, path):
    """A view of MOD reached as PATH, or None if neither may be used."""
    facaded, facade = facade_for(mod)
    if facaded:
        return facade
    allowed = state["allowed"]
    real = mod.__name__
    if sys.modules.get(path) is mod and allowed(path):
        return ModuleView(mod, path, True, VIEW_KEY)
    if sys.modules.get(real) is mod and allowed(real):
        return ModuleView(mod, real, True, VIEW_KEY)
    if path.count(".") == 0 and sys.modules.get(path) is mod and \
            state["any_below"](path):
        return ModuleView(mod, path, False, VIEW_KEY)
    return None


def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level != 0:
        raise ImportError("relative imports are not allowed in the sandbox")
    try:
        name = exact_str(name, "module name")
        fromlist = tuple(exact_str(n, "imported name")
                         for n in fromlist or ())
    except TypeError:
        raise ImportError("bad module name") from None
    if not name:
        raise ImportError("bad module name")
    why = state["import_check"](name)
    if why is not None:
        top = name.partition(".")[0]
        if not state["known"](top):
            # As python3 says it: no import of it could succeed anywhere.
            raise ModuleNotFoundError(f"No module named '{top}'", name=top)
        raise ImportError(why, name=name)
    mod = _real_import(name, None, None, fromlist, 0)
    if fromlist:
        path = name
        target = sys.modules.get(name, mod)
    else:
        path = name.partition(".")[0]
        target = mod
    view = module_view(target, path)
    if view is None:
        raise ImportError(f"import of '{name}' is not allowed", name=name)
    return view
