# SPDX-License-Identifier: Apache-2.0
# guard.py - the interpreter layers of a sandboxed run (trusted code).
#
# Executed once in the zygote into a private namespace (never in
# sys.modules).  The child calls prepare() before the audit hook and the
# seccomp filter are installed, then execute().  User code is compiled from
# a rewritten AST: every attribute read goes through `$getattr`, a name the
# parser cannot produce, so user code can neither call nor rebind it.

import ast
import builtins as _b
import io
import json
import os
import sys
import traceback
from collections import UserString

USER_FILE = "<user>"

INSPECT = frozenset((
    "tb_frame", "tb_next", "tb_lasti", "tb_lineno", "f_back", "f_builtins",
    "f_code", "f_generator", "f_globals", "f_locals", "f_trace", "f_lasti",
    "co_code", "gi_frame", "gi_code", "gi_yieldfrom", "cr_await",
    "cr_frame", "cr_code", "cr_origin", "ag_frame", "ag_code", "ag_await",
    "mro",
))
INSPECT_PREFIXES = ("f_", "co_", "gi_", "tb_", "cr_", "ag_")
SAFE_DUNDERS = frozenset(("__name__", "__doc__", "__qualname__",
                          "__module__", "__version__"))
SUPER_DENY = frozenset(("__class__", "__dict__", "__getattribute__",
                        "__reduce__", "__reduce_ex__", "__subclasses__",
                        "__init_subclass__", "__globals__", "__code__",
                        "__closure__", "__builtins__", "__mro__",
                        "__base__", "__bases__", "__self__", "__func__",
                        "__getstate__"))
NAME_DUNDERS = frozenset(("__name__", "__doc__", "__slots__", "__all__",
                          "__qualname__"))
FORMATS = ("format", "format_map")
# Public attributes of allowed modules that still lead somewhere unsafe.
MODULE_DENY = {
    "string": ("Formatter",),
    "typing": ("get_type_hints", "ForwardRef"),
    "operator": (),
    "numpy": ("ctypeslib", "f2py", "distutils", "testing"),
    # A socket object around any fd the program names (the run's pipes and
    # result channel among them): socket.socket(fileno=) is checked below.
    "socket": ("SocketType", "fromfd", "fromshare"),
}
# The run's own channels: stdin, stdout, stderr and the result channel
# (fds 0 to 3) never become a socket in the program's hands.
CHANNEL_FDS = 4
# Objects a program may not be handed, by id (rules/runtime.json: the
# library functions denied, and the real builtins the sandbox replaces).
REFUSED = {}


def is_refused(value):
    return REFUSED.get(id(value), REFUSED) is value

_real_getattr = getattr
_str_copy = str.__str__  # the slot of str itself: an exact copy
VIEW_KEY = object()
_real_import = __import__
_real_type = type
ModuleType = type(sys)
BuiltinMethod = type(len)

state = {}


def exact_str(x, what="attribute name"):
    """An exact str holding X's characters.  A str subclass can lie in its
    own methods (startswith, __eq__, __hash__, __format__, split, __str__)
    while the real lookups read its characters: every check, and the
    lookup it guards, works on this copy."""
    t = _real_type(x)
    if t is str:
        return x
    if issubclass(t, str):
        return _str_copy(x)
    raise TypeError(f"{what} must be string")


def attr_refused(name):
    return (name.startswith("_") or name in INSPECT
            or name.startswith(INSPECT_PREFIXES))


def refuse(obj, name):
    raise AttributeError(
        f"access to attribute '{name}' is not allowed in the sandbox")


def check_field(field):
    # "0.a[1].b" -> every attribute part must pass the guard.
    import _string
    first, rest = _string.formatter_field_name_split(field)
    for is_attr, part in rest:
        if is_attr and attr_refused(part):
            raise ValueError(
                f"format field '{field}' reaches a forbidden attribute")


def check_format(fmt):
    import _string
    for _lit, field, spec, _conv in _string.formatter_parser(fmt):
        if field is not None:
            check_field(field)
        if spec:
            check_format(spec)


def safe_format(s, name):
    real = _real_getattr(str, name)

    def fmt(*args, **kwargs):
        check_format(s)
        return real(s, *args, **kwargs)
    return fmt


def safe_format_unbound(name):
    real = _real_getattr(str, name)

    def fmt(s, *args, **kwargs):
        check_format(s)
        return real(s, *args, **kwargs)
    return fmt


def user_string_format(u, name):
    # UserString.format calls str.format on its data: check that string.
    def fmt(*args, **kwargs):
        data = u.data
        if not isinstance(data, str):
            raise TypeError("UserString data must be a str")
        check_format(data)
        return _real_getattr(str, name)(data, *args, **kwargs)
    return fmt


def guarded_format_attr(obj, name, *default):
    """format/format_map: every way to the real str method (a str, the
    str type, super() in a str subclass, collections.UserString) gets the
    format string checked; other objects' own methods pass."""
    real = _real_getattr(str, name)
    if isinstance(obj, str) and _real_getattr(_real_type(obj), name) is real:
        return safe_format(obj, name)
    if isinstance(obj, type) and issubclass(obj, str) and \
            _real_getattr(obj, name) is real:
        return safe_format_unbound(name)
    try:
        value = _real_getattr(obj, name)
    except AttributeError:
        if default:
            return default[0]
        raise
    owner = _real_getattr(value, "__self__", None)
    if isinstance(value, BuiltinMethod) and isinstance(owner, str):
        return safe_format(owner, name)
    if value is real:
        return safe_format_unbound(name)
    userstring = _real_getattr(UserString, name)
    if _real_getattr(value, "__func__", None) is userstring and \
            isinstance(owner, UserString):
        return user_string_format(owner, name)
    if value is userstring:
        return lambda u, *a, **k: user_string_format(u, name)(*a, **k)
    return value


def guarded_getattr(obj, name, *default):
    name = exact_str(name)
    if isinstance(obj, ModuleView):
        return obj._ModuleView__get(name, *default)
    if isinstance(obj, ModuleType):
        # A module that reached the program some other way gets the same
        # view an import would give, or nothing.
        view = module_view(obj, obj.__name__)
        if view is None:
            refuse(obj, name)
        return view._ModuleView__get(name, *default)
    if name in FORMATS:
        return guarded_format_attr(obj, name, *default)
    if attr_refused(name) and name not in SAFE_DUNDERS:
        dunder = name.startswith("__") and name.endswith("__")
        if not (isinstance(obj, super) and dunder and name not in SUPER_DENY):
            refuse(obj, name)
    try:
        value = _real_getattr(obj, name)
    except AttributeError:
        if default:
            return default[0]
        raise
    if isinstance(value, ModuleType):
        view = module_view(value, value.__name__)
        if view is None:
            refuse(obj, name)
        return view
    if is_refused(value):
        refuse(obj, name)
    return value


def guarded_hasattr(obj, name):
    try:
        guarded_getattr(obj, name)
    except AttributeError:
        return False
    return True


def guarded_setattr(obj, name, value):
    name = exact_str(name)
    if attr_refused(name):
        raise AttributeError(f"setting attribute '{name}' is not allowed")
    if isinstance(obj, ModuleView):
        raise AttributeError("modules are read-only in the sandbox")
    setattr(obj, name, value)


def guarded_delattr(obj, name):
    name = exact_str(name)
    if attr_refused(name):
        raise AttributeError(f"deleting attribute '{name}' is not allowed")
    if isinstance(obj, ModuleView):
        raise AttributeError("modules are read-only in the sandbox")
    delattr(obj, name)


def guarded_type(*args):
    if len(args) != 1:
        raise TypeError("type() takes one argument in the sandbox")
    t = _real_type(args[0])
    # type(type) would hand out the three-argument form again.
    return guarded_type if t is _real_type else t


def guarded_attrgetter(*names):
    import operator
    names = tuple(exact_str(n) for n in names)
    for n in names:
        for part in n.split("."):
            if attr_refused(part) or part in FORMATS:
                raise AttributeError(f"attribute '{part}' is not allowed")
    real = operator.attrgetter(*names)

    # The real attrgetter checks the names; the reads still go through
    # the guard (an object the program got from a library, such as a raw
    # module, is read as if by the program).
    def walk(obj, dotted):
        for part in dotted.split("."):
            obj = guarded_getattr(obj, part)
        return obj

    def attrgetter(obj):
        if len(names) == 1:
            return walk(obj, names[0])
        return tuple(walk(obj, n) for n in names)
    attrgetter.__name__ = "attrgetter"
    attrgetter.__qualname__ = repr(real)
    return attrgetter


def guarded_methodcaller(name, *args, **kwargs):
    name = exact_str(name)
    if attr_refused(name) or name in FORMATS:
        raise AttributeError(f"method '{name}' is not allowed")

    def methodcaller(obj):
        return guarded_getattr(obj, name)(*args, **kwargs)
    methodcaller.__name__ = "methodcaller"
    return methodcaller


def check_dataclass(cls):
    """dataclasses generates source from field names and execs it: a name
    that is not an identifier (from a namespace a metaclass was called
    with, or a forged __dataclass_fields__) would be code."""
    if not isinstance(cls, type):
        cls = _real_type(cls)
    names = list(cls.__dict__.get("__annotations__", {}))
    for c in cls.__mro__:
        fields = c.__dict__.get("__dataclass_fields__", {})
        names += list(fields)
        names += [_real_getattr(f, "name", None) for f in fields.values()]
    for n in names:
        check_field_name(n)


def check_field_name(n):
    """N, an exact str that is an identifier and no dunder, or an error
    (a str subclass would say what the checks want to hear, and format
    as code in the generated source)."""
    import keyword
    if _real_type(n) is not str or not n.isidentifier() or \
            keyword.iskeyword(n) or n.startswith("__") and n.endswith("__"):
        raise TypeError(f"field name {short_repr(n, 60)} is not an "
                        "identifier")
    return n


def dataclass_field_spec(spec):
    """One make_dataclass field (NAME, (NAME, TYPE) or (NAME, TYPE,
    FIELD)) with its name an exact, checked str."""
    if _real_type(spec) is tuple and spec:
        return (check_field_name(exact_str(spec[0], "field name")),
                *spec[1:])
    return check_field_name(exact_str(spec, "field name"))


def dataclass_wrapper(name):
    import dataclasses
    real = _real_getattr(dataclasses, name)
    if name == "dataclass":
        def dataclass(cls=None, /, **kwargs):
            def wrap(c):
                check_dataclass(c)
                return real(c, **kwargs)
            return wrap if cls is None else wrap(cls)
        return dataclass
    if name == "make_dataclass":
        def make_dataclass(cls_name, fields, *, bases=(), **kwargs):
            cls_name = exact_str(cls_name, "class name")
            fields = [dataclass_field_spec(f) for f in fields]
            for b in bases:
                check_dataclass(b)
            return real(cls_name, fields, bases=bases, **kwargs)
        return make_dataclass

    def checked(obj, *args, **kwargs):
        check_dataclass(obj)
        return real(obj, *args, **kwargs)
    checked.__name__ = name
    return checked


def functools_wrapper(name):
    """update_wrapper and wraps copy attributes by name: only the
    standard ones (update_wrapper(w, f, updated=('__globals__',)) would
    copy a library function's globals, real builtins included, into a
    dict of the program's)."""
    import functools
    real = _real_getattr(functools, name)
    allowed = (frozenset(functools.WRAPPER_ASSIGNMENTS) |
               frozenset(functools.WRAPPER_UPDATES))

    def names_checked(names):
        out = []
        for n in names:
            n = exact_str(n)
            if n not in allowed and attr_refused(n):
                raise AttributeError(
                    f"{name} copying attribute {n!r} is not "
                    "allowed in the sandbox")
            out.append(n)
        return tuple(out)

    def checked(*args, **kwargs):
        first = 2 if name == "update_wrapper" else 1
        args = [*args[:first], *(names_checked(a) for a in args[first:])]
        for k in ("assigned", "updated"):
            if k in kwargs:
                kwargs[k] = names_checked(kwargs[k])
        return real(*args, **kwargs)
    checked.__name__ = name
    return checked


WRAPPED = {
    ("operator", "attrgetter"): guarded_attrgetter,
    ("operator", "methodcaller"): guarded_methodcaller,
    ("functools", "update_wrapper"): functools_wrapper("update_wrapper"),
    ("functools", "wraps"): functools_wrapper("wraps"),
}
for _n in ("dataclass", "make_dataclass", "fields", "asdict", "astuple",
           "replace"):
    WRAPPED[("dataclasses", _n)] = dataclass_wrapper(_n)


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
                    and self.__full and n not in MODULE_DENY.get(path, ())]
        if attr_refused(name) and name not in SAFE_DUNDERS:
            raise AttributeError(f"module '{path}' attribute '{name}' is "
                                 "not allowed in the sandbox")
        value = _real_getattr(self.__m, name)
        if isinstance(value, ModuleType):
            view = module_view(value, f"{path}.{name}")
            if view is not None:
                return view
        elif self.__full and name not in MODULE_DENY.get(path, ()) and \
                not is_refused(value):
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
        "$getattr": guarded_getattr,
    })
    return d


class Rewriter(ast.NodeTransformer):
    """Route attribute reads through $getattr; refuse what cannot be
    guarded at run time (dunder names, forbidden attribute stores)."""

    def fail(self, node, msg):
        err = SyntaxError(msg)
        err.lineno = getattr(node, "lineno", 1)
        err.offset = getattr(node, "col_offset", 0) + 1
        raise err

    def visit_Name(self, node):
        n = node.id
        if n.startswith("__") and n.endswith("__") and n not in NAME_DUNDERS:
            self.fail(node, f"name '{n}' is not allowed in the sandbox")
        return node

    def visit_MatchClass(self, node):
        # case C(attr=p) reads the attribute without a LOAD_ATTR.
        for name in node.kwd_attrs:
            if attr_refused(name):
                self.fail(node, f"matching attribute '{name}' is not "
                          "allowed in the sandbox")
        self.generic_visit(node)
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            if attr_refused(node.attr):
                self.fail(node, f"setting attribute '{node.attr}' is not "
                          "allowed in the sandbox")
            return node
        call = ast.Call(func=ast.Name(id="$getattr", ctx=ast.Load()),
                        args=[node.value, ast.Constant(node.attr)],
                        keywords=[])
        return ast.copy_location(call, node)


def compile_user(src):
    tree = ast.parse(src, USER_FILE, "exec")
    tree = Rewriter().visit(tree)
    body = tree.body
    if body and isinstance(body[-1], ast.Expr):
        last = body[-1]
        body[-1] = ast.copy_location(
            ast.Assign(targets=[ast.Name(id="$result", ctx=ast.Store())],
                       value=last.value), last)
    ast.fix_missing_locations(tree)
    return compile(tree, USER_FILE, "exec", dont_inherit=True)


def make_stdio():
    enc = dict(encoding="utf-8", errors="backslashreplace")
    return (io.TextIOWrapper(io.FileIO(0, "r", closefd=False), **enc),
            io.TextIOWrapper(io.FileIO(1, "w", closefd=False),
                             line_buffering=False, **enc),
            io.TextIOWrapper(io.FileIO(2, "w", closefd=False),
                             write_through=True, **enc))


def reseed():
    # random reseeds itself from os.urandom in the child (its at-fork
    # hook, run by PyOS_AfterFork_Child); numpy's global state does not.
    np = sys.modules.get("numpy.random")
    if np is not None:
        np.seed(int.from_bytes(os.urandom(4), "little"))


def precompile(src):
    """In the zygote, before fork (parsing is not running): returns
    (code or None, error or None, source lines)."""
    lines = src.decode("utf-8", "replace").splitlines()
    state["lines"] = lines
    try:
        return compile_user(src), None, lines
    except (SyntaxError, ValueError, OverflowError, RecursionError,
            MemoryError) as e:
        return None, error_info(e), lines


def prepare(compiled, scratch):
    """In the child, before the audit hook and seccomp: returns
    (code, globals, error).  Everything costly was made in the zygote, so
    the child copies as few pages as possible."""
    code, error, lines = compiled
    state["lines"] = lines
    sys.stdin, sys.stdout, sys.stderr = state["stdio"]
    reseed()
    tf = sys.modules.get("tempfile")
    if tf is not None:
        tf.tempdir = scratch
    g = {"__name__": "__main__", "__doc__": None,
         "__builtins__": dict(state["builtins"])}
    return code, g, error


def short_repr(v, cap):
    try:
        r = repr(v)
    except BaseException as e:  # noqa: B036 - user __repr__ may raise
        r = f"<repr failed: {_real_type(e).__name__}>"
    return r if len(r) <= cap else r[:cap - 3] + "..."


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


def user_frames(tb):
    frames = [f for f in traceback.extract_tb(tb)
              if f.filename == USER_FILE]
    lines = []
    for f in frames[-20:]:
        lines.append(f'  line {f.lineno}, in {f.name}')
        src = state.get("lines", [])
        if 0 < f.lineno <= len(src):
            line = src[f.lineno - 1].strip()
            if len(line) > 300:
                line = line[:297] + "..."
            lines.append("    " + line)
    return frames, lines


def error_info(e):
    name = _real_type(e).__name__
    msg = str_or(e)
    frames, lines = user_frames(e.__traceback__)
    line = frames[-1].lineno if frames else None
    if isinstance(e, SyntaxError):
        line = e.lineno
        msg = e.msg
    tb = "Traceback (most recent call last):\n" if lines else ""
    tb += "".join(s + "\n" for s in lines) + f"{name}: {msg}\n"
    return {"type": name, "message": msg, "line": line, "traceback": tb}


def str_or(e):
    try:
        s = str(e)
    except BaseException:  # noqa: B036
        s = "<unprintable>"
    return s if len(s) <= 2000 else s[:1997] + "..."


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
    if code is not None:
        try:
            exec(code, g)
            if "$result" in g and g["$result"] is not None:
                res["result"] = short_repr(g["$result"], 10000)
        except SystemExit as e:
            status = exit_status(e.code)
        except BaseException as e:  # noqa: B036 - report everything
            res["error"] = error_info(e)
            status = 1
        res["variables"] = variables(g)
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except BaseException:  # noqa: B036
            pass
    data = ("R" + json.dumps(res, default=str) + "\n").encode()
    while data:
        data = data[os.write(result_fd, data):]
    return status


def warmup():
    """In a spare child, before any request: walk the paths a run takes
    (compile, exec, error report, variables, JSON) on a sample program so
    their pages are already copied when the request arrives.  A generator:
    the spare stops between two steps when its request arrives."""
    sample = (b"total = sum(i * 2 for i in range(10))\n"
              b"words = {'a': [1, 2.5], 'b': (True, None)}\n"
              b"label = f'{total}:{len(words)}'.upper()\n"
              b"label\n1 / 0\n")
    code, error, lines = precompile(sample)
    yield
    g = {"__name__": "__main__", "__doc__": None,
         "__builtins__": dict(state["builtins"])}
    try:
        exec(code, g)
    except ZeroDivisionError as e:
        error = error_info(e)
    yield
    json.dumps({"result": short_repr(g.get("$result"), 100),
                "variables": variables(g), "error": error})
    yield
    np = sys.modules.get("numpy")
    if np is not None:
        # The data-science profile's usual first steps: array creation,
        # a reduction, arithmetic, repr.
        a = np.arange(10)
        short_repr(((a * 2 + 1).sum(), a.mean(), a.reshape(2, 5)), 100)


def init(allowed, any_below, import_check, at_ok):
    """In the zygote: the C callbacks for the import allow-list, and the
    path check of an open relative to a directory descriptor."""
    state["allowed"] = allowed
    state["any_below"] = any_below
    state["import_check"] = import_check
    state["at_ok"] = at_ok


# -- The runtime policy (rules/runtime.json), applied in the zygote ---------

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
    name = filename if isinstance(filename, str) else "<library>"
    return name if name.startswith("<") else "<library>"


GUARDED_CODE = {}


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


def apply_runtime(text):
    """In the zygote, after preload: apply rules/runtime.json."""
    policy = json.loads(text)
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
    for name in policy["guarded_exec"]:
        load_module(name)
        mod = sys.modules.get(name)
        if mod is not None:
            mod.__dict__.update(exec=lib_exec, eval=lib_eval,
                                compile=lib_compile)


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


def preload(names, more=(), runtime="{}"):
    """In the zygote: import the profiles' modules once, with no thread
    pools and matplotlib on Agg, then MORE (what they would import lazily
    during a run; failures there are ignored).  Returns the names of
    NAMES that failed."""
    import importlib
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
    import _string  # noqa: F401 - used by the format guard in the child
    state["stdio"] = make_stdio()
    state["builtins"] = make_builtins()
    apply_runtime(runtime)
    freeze()
    return missing


def freeze():
    """Move every object to the permanent generation: a collection in a
    child then never walks (and copies) the zygote's pages."""
    import gc
    gc.collect()
    gc.freeze()
