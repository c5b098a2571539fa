# SPDX-License-Identifier: Apache-2.0
# policy.py - the runtime policy (rules/runtime.json) applied in the
# zygote (trusted code): denied and wrapped library functions, guarded
# exec/eval/compile for the libraries that evaluate strings, the refused
# builtins and the attribute policy.

import ast
import builtins as _b
import json
import sys

from pyward_guard.codegen import harden_codegen
from pyward_guard.common import (
    REFUSED, _real_getattr, _real_type, exact_str, set_attribute_policy,
    state)
from pyward_guard.facade import set_facades
from pyward_guard.rewrite import Rewriter, compile_user


def resolve(entry):
    """The object ENTRY names and where it is bound (owner, attribute), or
    None when its module is not loaded (then no program can reach it
    either: a later import by name goes through the allow-list)."""
    mod = sys.modules.get(entry["module"])
    if mod is None:
        return None
    owner, parts = mod, entry["name"].split(".")
    for part in parts[:-1]:
        owner = _real_getattr(owner, part, None)
    obj = _real_getattr(owner, parts[-1], None)
    return None if obj is None else (obj, owner, parts[-1])


def denied_stub(entry):
    what = f"{entry['module']}.{entry['name']}"
    why = entry["why"]

    def denied(*args, **kwargs):
        raise ValueError(f"{what} is not allowed in the sandbox: {why}")
    denied.__name__ = entry["name"].rpartition(".")[2]
    return denied


def first_arg(real, args, kwargs):
    if args:
        return args[0]
    code = _real_getattr(real, "__code__", None)
    name = code.co_varnames[0] if code and code.co_argcount else None
    return kwargs.get(name)


def wrapped_call(entry, real):
    """REAL behind the check ENTRY asks for on its first argument."""
    what = f"{entry['module']}.{entry['name']}"
    prefixes = tuple(entry.get("refuse_prefixes", ()))
    allow = entry.get("allow")
    if entry.get("check_dir_fd"):
        def at_checked(path, flags, mode=0o777, *, dir_fd=None):
            if dir_fd is not None:
                state["at_ok"](dir_fd, path, flags)
            return real(path, flags, mode, dir_fd=dir_fd)
        return at_checked

    def checked(*args, **kwargs):
        arg = first_arg(real, args, kwargs)
        if isinstance(arg, str):
            arg = exact_str(arg)
            if arg.lower().startswith(prefixes) or (
                    allow is not None and arg not in allow):
                raise ImportError(f"{what}({arg!r}) is not allowed in the "
                                  f"sandbox: {entry['why']}")
        elif allow is not None:
            raise ImportError(f"{what} takes a name in the sandbox")
        return real(*args, **kwargs)
    checked.__name__ = entry["name"].rpartition(".")[2]
    return checked


def rebind(swaps):
    """Every module attribute and the named class attribute bound to an
    object of SWAPS (id -> (original, replacement)) takes the
    replacement, so the library's own calls meet it too."""
    for mod in list(sys.modules.values()):
        d = _real_getattr(mod, "__dict__", None)
        if not isinstance(d, dict):
            continue
        for k, v in list(d.items()):
            hit = swaps.get(id(v))
            if hit is not None and hit[0] is v:
                d[k] = hit[1]


def lib_filename(filename):
    """A "<...>" file name for code a library compiles: FILENAME's exact
    characters (a str subclass could answer startswith as it likes), and
    never the guard's own file name, under which the audit hook would
    take the code for the guard's."""
    if not isinstance(filename, str):
        return "<library>"
    name = exact_str(filename, "filename")
    if not name.startswith("<") or name == GUARD_FILE:
        return "<library>"
    return name


GUARDED_CODE = {}
# The file name of the guard's own code (audit.c: PW_SBX_GUARD_FILE).
GUARD_FILE = lib_filename.__code__.co_filename


def lib_compile(source, filename="<library>", mode="exec", flags=0,
                dont_inherit=False, optimize=-1, **kwargs):
    """compile() for a library that evaluates strings a program can
    choose: the guard's own rewrite (attribute reads guarded, dunder names
    refused), and a "<...>" file name, so the audit hook takes the code
    for the program's."""
    if flags & ast.PyCF_ONLY_AST:
        return compile(source, lib_filename(filename), mode, flags,
                       dont_inherit=True)
    if isinstance(source, ast.AST):
        tree = source
    else:
        if isinstance(source, (bytes, bytearray)):
            source = bytes(source).decode("utf-8")
        tree = ast.parse(exact_str(source, "source"), "<library>", mode)
    tree = Rewriter().visit(tree)
    ast.fix_missing_locations(tree)
    code = compile(tree, lib_filename(filename), mode, dont_inherit=True)
    GUARDED_CODE[id(code)] = code
    return code


def lib_namespace(g):
    """G with the real builtins it holds replaced by the sandbox's."""
    if not isinstance(g, dict):
        raise TypeError("globals must be a dict in the sandbox")
    safe = state["builtins"]
    for k, v in list(g.items()):
        if state["unsafe"].get(id(v), g) is v:
            if k in safe:
                g[k] = safe[k]
            else:
                del g[k]
    g["__builtins__"] = dict(safe)
    return g


def lib_code(source, mode):
    if isinstance(source, _real_type(compile_user.__code__)):
        if GUARDED_CODE.get(id(source)) is not source:
            raise TypeError("code not compiled by the sandbox")
        return source
    return lib_compile(source, "<library>", mode)


def lib_exec(source, globals=None, locals=None, /):
    if globals is None:
        raise TypeError("exec needs explicit globals in the sandbox")
    code = lib_code(source, "exec")
    g = lib_namespace(globals)
    return exec(code, g, g if locals is None else locals)


def lib_eval(source, globals=None, locals=None, /):
    if globals is None:
        raise TypeError("eval needs explicit globals in the sandbox")
    code = lib_code(source, "eval")
    g = lib_namespace(globals)
    return eval(code, g, g if locals is None else locals)


def load_module(name):
    """Import NAME in the zygote if its top package is loaded (so a
    policy entry is applied before any run can import it lazily)."""
    if name.partition(".")[0] in sys.modules:
        import importlib
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - optional part of a library
            pass


def rewrite_policy(text):
    """In the server, once the guard is loaded: the part of
    rules/runtime.json the rewriter consults (the attribute policy), so
    that code_blob compiles a program as its child would.  The zygote
    applies the whole policy after its imports (apply_runtime)."""
    set_attribute_policy(json.loads(text)["attributes"])


def apply_runtime(text):
    """In the zygote, after preload: apply rules/runtime.json."""
    policy = json.loads(text)
    set_attribute_policy(policy["attributes"])
    set_facades(policy["facades"], policy["facades_whole_with_open"])
    swaps = {}
    for deny, entries in ((True, policy["deny"]), (False, policy["wrap"])):
        for entry in entries:
            load_module(entry["module"])
            found = resolve(entry)
            if found is None:
                continue
            real, owner, attr = found
            new = denied_stub(entry) if deny else wrapped_call(entry, real)
            if deny:
                REFUSED[id(real)] = real
            swaps[id(real)] = (real, new)
            if isinstance(owner, type):
                setattr(owner, attr, new)
    rebind(swaps)
    for n in policy["refused_builtins"]:
        v = _real_getattr(_b, n)
        REFUSED[id(v)] = v
    safe = state["builtins"]
    state["unsafe"] = {id(v): v for k, v in vars(_b).items()
                       if safe.get(k) is not v}
    harden_codegen()
    for name in policy["guarded_exec"]:
        load_module(name)
        mod = sys.modules.get(name)
        if mod is not None:
            mod.__dict__.update(exec=lib_exec, eval=lib_eval,
                                compile=lib_compile)
