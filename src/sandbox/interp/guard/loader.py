# SPDX-License-Identifier: Apache-2.0
# loader.py - the guard's own importer (trusted code).  guard.c runs this
# module first, into a namespace of its own, and calls load() with the
# code of every other module of the guard (compiled at build time and
# embedded in the binary: nothing is read from disk).
#
# The guard's modules are never in sys.modules, nor on any finder's path:
# each is a module object only the guard holds, and the modules import
# each other through an __import__ of their own (in a copy of the
# builtins that only their frames use), which resolves
# `from pyward_guard.NAME import ...` and `from pyward_guard import NAME`
# from the embedded code and hands every other import to the real
# __import__.  A program's imports go through the import guard and the
# import system, which know no module of this name; and a module of the
# guard cannot be replaced by a file on sys.path, since the loader never
# asks the import system for one.

import builtins
import sys

PACKAGE = "pyward_guard"


def load(codes, order):
    """CODES maps each module's full name (pyward_guard.NAME) to its code
    object; the modules are executed in ORDER (a module's imports execute
    the modules it names first).  Returns {name: module}.  An import of an
    unknown module of the guard, of one still executing (a cycle) or in
    another form than `from ... import` raises ImportError."""
    module_type = type(sys)
    real_import = builtins.__import__
    package = module_type(PACKAGE)
    modules = {}
    executing = set()
    own_builtins = dict(builtins.__dict__)

    def module(name):
        found = modules.get(name)
        if found is not None:
            return found
        code = codes.get(name)
        if code is None or name in executing:
            why = "no such module" if code is None else "an import cycle"
            raise ImportError(f"the guard's module {name}: {why}", name=name)
        m = module_type(name)
        m.__builtins__ = own_builtins
        executing.add(name)
        try:
            exec(code, m.__dict__)
        finally:
            executing.discard(name)
        modules[name] = m
        setattr(package, name.rpartition(".")[2], m)
        return m

    def guard_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name != PACKAGE and \
                not name.startswith(PACKAGE + "."):
            return real_import(name, globals, locals, fromlist, level)
        if level != 0 or not fromlist:
            raise ImportError("the guard's modules are imported with "
                              f"'from {PACKAGE}[.NAME] import ...'",
                              name=name)
        if name == PACKAGE:
            for n in fromlist:
                module(f"{PACKAGE}.{n}")
            return package
        return module(name)

    own_builtins["__import__"] = guard_import
    for name in order:
        module(name)
    return modules
