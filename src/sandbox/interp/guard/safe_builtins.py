# SPDX-License-Identifier: Apache-2.0
# safe_builtins.py - the builtins a program gets (trusted code): the
# harmless ones, the exceptions, and the guarded getattr family; no open,
# eval, exec, compile, vars, globals, locals or breakpoint.

import builtins as _b

from pyward_guard.attrs import (
    guarded_build_class, guarded_delattr, guarded_getattr, guarded_hasattr,
    guarded_owned, guarded_setattr, guarded_type)
from pyward_guard.common import BASE_TYPES, _real_getattr
from pyward_guard.views import guarded_import


BUILTIN_NAMES = (
    "abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes",
    "callable", "chr", "classmethod", "complex", "dict", "dir", "divmod",
    "enumerate", "filter", "float", "format", "frozenset", "hash", "hex",
    "id", "input", "int", "isinstance", "issubclass", "iter", "aiter",
    "anext", "len", "list", "map", "max", "min", "next", "object", "oct",
    "ord", "pow", "print", "property", "range", "repr", "reversed",
    "round", "set", "slice", "sorted", "staticmethod", "str", "sum",
    "super", "tuple", "zip", "None", "True", "False", "Ellipsis",
    "NotImplemented", "__build_class__",
)


def make_builtins():
    d = {}
    for n in BUILTIN_NAMES:
        d[n] = _real_getattr(_b, n)
    for n, v in vars(_b).items():
        if isinstance(v, type) and issubclass(v, BaseException):
            d[n] = v
    d.update({
        "getattr": guarded_getattr, "hasattr": guarded_hasattr,
        "setattr": guarded_setattr, "delattr": guarded_delattr,
        "type": guarded_type, "__import__": guarded_import,
        "$getattr": guarded_getattr, "$owned": guarded_owned,
        "__build_class__": guarded_build_class,
    })
    # super is left out: an instance of a subclass of super reads through
    # whatever class and object it was given.
    BASE_TYPES.update((id(v), v) for v in d.values()
                      if isinstance(v, type) and v is not super)
    return d
