# SPDX-License-Identifier: Apache-2.0
"""The guard's decisions, one by one, under plain python3: the modules of
src/sandbox/interp/guard/ loaded as guard.c loads them (guardload.py), with
rules/runtime.json applied.  No fork, no seccomp: milliseconds.  What the
OS layers and the audit hook add is tests/exec's and tests/redteam's."""

import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guardload  # noqa: E402

G = guardload.load()
getattr_ = G["guarded_getattr"]
import_ = G["guarded_import"]


def refused(fn, *args, exc=AttributeError, **kwargs):
    """True if FN(*ARGS) raises EXC."""
    try:
        fn(*args, **kwargs)
    except exc:
        return True
    return False


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def embedded_sources(inc):
    """[(module name, source)] of guardc's output INC, in its order."""
    import re
    with open(inc) as f:
        text = f.read()
    out = []
    for m in re.finditer(r"/\* source of (\S+) \*/\n[^{]*\{([^}]*)\}", text):
        data = bytes(int(x, 16) for x in m.group(2).replace(",", " ").split())
        expect(data.endswith(b"\0"), f"{m.group(1)}: NUL-terminated")
        out.append((m.group(1), data[:-1].decode()))
    return out


def test_loads_what_the_binary_embeds():
    """The modules this suite loads, in its order, are the ones the build
    embedded (src/sandbox/interp/guard-modules.inc), byte for byte, when
    there is a build."""
    top = os.environ.get("top_builddir", guardload.srcdir())
    inc = os.path.join(top, "src/sandbox/interp/guard-modules.inc")
    if not os.path.exists(inc):
        return
    expect(embedded_sources(inc) == guardload.sources(),
           "guard-modules.inc holds the modules of GUARD_PY, in order")


def test_modules_are_the_guards_alone():
    """The guard's modules are in no sys.modules; each has its own
    namespace, no loader or spec to walk, and builtins whose __import__
    is the guard's; the guard's own imports take the real __import__."""
    import builtins
    names = [n for n in sys.modules if n.startswith("pyward_guard")]
    expect(names == [], f"in sys.modules: {names}")
    mods = G.modules
    expect(list(mods)[0] == "pyward_guard.common" and
           "pyward_guard.entry" in mods and
           "pyward_guard.loader" not in mods, f"modules: {list(mods)}")
    attrs = mods["pyward_guard.attrs"]
    expect(getattr_.__globals__ is vars(attrs), "a module's own globals")
    expect(getattr_.__module__ == "pyward_guard.attrs", "its name")
    for name, m in mods.items():
        expect(m.__spec__ is None and m.__loader__ is None and
               m.__name__ == name, f"{name}: nothing to walk")
        own = vars(m)["__builtins__"]
        expect(own is not vars(builtins) and
               own["__import__"] is not builtins.__import__ and
               own["getattr"] is getattr, f"{name}: the guard's builtins")
    expect(G["_real_import"] is builtins.__import__,
           "the import guard's real import is the interpreter's")


def test_loader_imports_only_its_modules():
    """The modules' __import__ gives only the embedded modules, only as
    `from ... import`, and never a file on sys.path of the same name."""
    import tempfile
    imp = vars(G.modules["pyward_guard.common"])["__builtins__"]["__import__"]
    common = G.modules["pyward_guard.common"]
    expect(imp("pyward_guard.common", None, None, ("state",)) is common,
           "from pyward_guard.common import ...")
    expect(imp("pyward_guard", None, None, ("common",)).common is common,
           "from pyward_guard import common")
    for args in (("pyward_guard.common",), ("pyward_guard",),
                 ("pyward_guard.nothing", None, None, ("x",)),
                 ("pyward_guard.loader", None, None, ("load",)),
                 ("common", None, None, ("state",), 1)):
        expect(refused(imp, *args, exc=ImportError), f"import {args}")
    with tempfile.TemporaryDirectory() as d:
        pkg = os.path.join(d, "pyward_guard")
        os.mkdir(pkg)
        for f in ("__init__.py", "common.py", "nothing.py"):
            with open(os.path.join(pkg, f), "w") as out:
                out.write("import builtins\nbuiltins.PLANTED = 1\n")
        sys.path.insert(0, d)
        try:
            g = guardload.load()
            expect(refused(imp, "pyward_guard.nothing", None, None, ("x",),
                           exc=ImportError), "a file of the name")
        finally:
            sys.path.remove(d)
        import builtins
        expect(not hasattr(builtins, "PLANTED"), "a planted file ran")
        expect(g.modules["pyward_guard.common"].__spec__ is None,
               "the embedded module")


def test_loader_refuses_a_cycle():
    """A module importing one that is still executing is an error, never
    a half-made module."""
    loader = {"__builtins__": __import__("builtins")}
    src = dict(guardload.sources())["pyward_guard.loader"]
    exec(compile(src, guardload.GUARD_FILE, "exec"), loader)
    codes = {
        "pyward_guard.a": compile("from pyward_guard.b import y\nx = 1\n",
                                  guardload.GUARD_FILE, "exec"),
        "pyward_guard.b": compile("from pyward_guard.a import x\ny = 2\n",
                                  guardload.GUARD_FILE, "exec"),
    }
    expect(refused(loader["load"], codes, ["pyward_guard.a"],
                   exc=ImportError), "a cycle")


def test_fails_closed_before_policy():
    bare = guardload.load(policy=False)
    expect(refused(bare["attr_refused"], "real", exc=TypeError),
           "attribute checks before the policy is applied must fail")


def test_underscore_names():
    obj = io.StringIO()
    for name in ("__dict__", "__subclasses__", "_private", "__bases__",
                 "__mro__", "__globals__", "__getattribute__",
                 "__reduce_ex__", "_StringIO__x", "__x"):
        expect(refused(getattr_, obj, name), name)
    expect(getattr_(obj, "__class__") is io.StringIO, "__class__ is type()")
    expect(getattr_(len, "__name__") == "len", "__name__ is readable")
    expect(getattr_(len, "__doc__") == len.__doc__, "__doc__ is readable")
    expect(getattr_(3, "real") == 3, "a public attribute passes")
    expect(getattr_(obj, "nothing", 7) == 7, "the default of a miss")


def gen():
    yield 1


async def coro():
    return 1


async def agen():
    yield 1


def test_frame_code_generator_traceback():
    g = gen()
    for name in ("gi_frame", "gi_code", "gi_yieldfrom", "gi_running"):
        expect(refused(getattr_, g, name), name)
    c = coro()
    for name in ("cr_frame", "cr_code", "cr_await", "cr_origin"):
        expect(refused(getattr_, c, name), name)
    c.close()
    a = agen()
    for name in ("ag_frame", "ag_code", "ag_await"):
        expect(refused(getattr_, a, name), name)
    try:
        1 / 0
    except ZeroDivisionError as e:
        tb = e.__traceback__
    for name in ("tb_frame", "tb_next", "tb_lasti", "tb_lineno"):
        expect(refused(getattr_, tb, name), name)
    frame = sys._getframe()
    for name in ("f_back", "f_globals", "f_lineno", "f_code", "f_locals"):
        expect(refused(getattr_, frame, name), name)
    expect(refused(getattr_, gen.__code__, "co_consts"), "co_ prefix")
    expect(refused(getattr_, int, "mro"), "mro")


class Liar(str):
    """A name that says it is harmless to every str method it overrides."""

    def startswith(self, *a):
        return False

    def __eq__(self, other):
        return False

    def __hash__(self):
        return hash("harmless")


def test_str_subclass_names():
    expect(refused(getattr_, 1, Liar("__dict__")), "a lying str subclass")
    expect(getattr_(1, Liar("__class__")) is int, "judged by its characters")
    expect(refused(G["guarded_setattr"], gen, Liar("__code__"), None),
           "setattr with a lying name")
    expect(refused(getattr_, 1, 5, exc=TypeError), "a name must be a str")
    expect(refused(import_, Liar("os"), exc=ImportError), "import")


def test_super():
    seen = {}

    class A:
        def __init__(self):
            seen["init"] = True

    class B(A):
        def __init__(self):
            getattr_(super(), "__init__")()
            seen["class"] = getattr_(super(), "__class__") is super
            seen["subclasses"] = refused(getattr_, super(),
                                         "__subclasses__")
    B()
    expect(seen == {"init": True, "class": True, "subclasses": True},
           f"super(): ordinary dunders pass, the others not: {seen}")


def test_setattr_delattr():
    class O:
        pass
    o = O()
    G["guarded_setattr"](o, "x", 1)
    expect(o.x == 1, "a public attribute is set")
    expect(refused(G["guarded_setattr"], o, "__class__", A_CLASS),
           "setattr __class__")
    expect(refused(G["guarded_delattr"], o, "_x"), "delattr _x")
    view = import_("math")
    expect(refused(G["guarded_setattr"], view, "pi", 3), "view read-only")


class A_CLASS:
    pass


def test_format_strings():
    fmt = getattr_("{0.__class__}", "format")
    expect(refused(fmt, 1, exc=ValueError), "str.format walking __class__")
    expect(getattr_("{0.real}", "format")(2) == "2", "a public field")
    unbound = getattr_(str, "format")
    expect(refused(unbound, "{0.__class__}", 1, exc=ValueError), "unbound")
    fmt_map = getattr_("{a.__globals__}", "format_map")
    expect(refused(fmt_map, {"a": gen}, exc=ValueError), "format_map")
    nested = getattr_("{0:{1.__class__}}", "format")
    expect(refused(nested, 1, 2, exc=ValueError), "a nested spec")
    string = import_("string")
    expect(refused(getattr_, string, "Formatter"), "string.Formatter")


def test_attrgetter_methodcaller():
    op = import_("operator")
    ag = getattr_(op, "attrgetter")
    expect(refused(ag, "__class__"), "attrgetter('__class__')")
    expect(refused(ag, "real.__class__"), "a dotted path")
    expect(ag("real")(4) == 4, "attrgetter('real')")
    mc = getattr_(op, "methodcaller")
    expect(refused(mc, "__reduce__"), "methodcaller('__reduce__')")
    expect(mc("upper")("a") == "A", "methodcaller('upper')")


def test_type():
    t = G["guarded_type"]
    expect(t(1) is int, "type(1)")
    expect(refused(t, "X", (), {}, exc=TypeError), "type() with 3 args")
    expect(t(type) is t, "type(type) is not the real type")


def test_module_views_hide_reexports():
    rnd = import_("random")
    expect(callable(getattr_(rnd, "random")), "random.random")
    expect(refused(getattr_, rnd, "_os"), "random._os")
    typing = import_("typing")
    expect(refused(getattr_, typing, "sys"), "typing.sys")
    expect(refused(getattr_, import_("json"), "codecs"), "json.codecs")
    expect(refused(getattr_, import_("statistics"), "sys"), "stats.sys")
    expect(refused(getattr_, import_("glob"), "os"), "glob.os")
    expect(refused(getattr_, typing, "get_type_hints"), "module_refused")
    expect("sys" not in getattr_(typing, "__all__"), "no module in __all__")
    expect(repr(rnd) == "<module 'random'>", "a view's repr")
    view_type = type(rnd)
    expect(refused(view_type, sys, "sys", True, exc=TypeError),
           "a view cannot be made by the program")


def test_module_reached_otherwise():
    import math
    expect(getattr_(math, "pi") == math.pi, "a raw allowed module: a view")
    expect(refused(getattr_, os, "system"), "a raw module not allowed")
    holder = type("H", (), {"m": os, "ok": math})
    expect(refused(getattr_, holder, "m"), "a module attribute: no view")
    expect(repr(getattr_(holder, "ok")) == "<module 'math'>", "a view")


def test_import_guard():
    for name in ("os", "sys", "subprocess", "ctypes", "importlib"):
        expect(refused(import_, name, exc=ImportError), name)
    expect(refused(import_, "json", level=1, exc=ImportError), "relative")
    expect(refused(import_, "", exc=ImportError), "empty name")
    expect(refused(import_, b"json", exc=ImportError), "bytes name")
    col = import_("collections.abc")
    expect(repr(col) == "<module 'collections'>", "import a.b gives a")
    expect(repr(getattr_(col, "abc")) == "<module 'collections.abc'>",
           "an allowed submodule is a view")
    abc = import_("collections.abc", fromlist=("Mapping",))
    expect(repr(abc) == "<module 'collections.abc'>", "from a.b import")


def test_builtins():
    b = G["make_builtins"]()
    for name in ("open", "eval", "exec", "compile", "vars", "globals",
                 "locals", "breakpoint", "help", "exit", "quit",
                 "memoryview", "__loader__", "__spec__"):
        expect(name not in b, f"builtin {name}")
    expect(b["getattr"] is getattr_, "getattr is the guard's")
    expect(b["$getattr"] is getattr_, "$getattr is the guard's")
    expect(b["__import__"] is import_, "__import__ is the guard's")
    expect(b["type"] is G["guarded_type"], "type is the guard's")
    expect(b["ValueError"] is ValueError, "the exceptions")
    policy = json.loads(guardload.runtime_text())
    for name in policy["refused_builtins"]:
        real = getattr(__builtins__, name, None) or \
            __import__("builtins").__dict__[name]
        expect(b.get(name) is not real, f"refused builtin {name}")
        expect(G["is_refused"](real), f"{name} is refused as a value")


def test_refused_values():
    holder = type("H", (), {"e": staticmethod(eval), "x": 1})
    expect(refused(getattr_, holder, "e"), "a real builtin as a value")
    expect(getattr_(holder, "x") == 1, "a plain value")


def test_rewrite():
    compile_user = G["compile_user"]
    code = compile_user(b"x = 2\nx * 3\n")
    expect("$getattr" not in code.co_names, "no attribute: no $getattr")
    expect("$result" in code.co_names, "the last expression is the result")
    code = compile_user(b"y = (1).real\n")
    expect("$getattr" in code.co_names, "reads go through $getattr")
    for src in (b"__import__('os')", b"x.__class__ = 1",
                b"del x.__dict__",
                b"match x:\n    case int(__class__=c): pass\n",
                b"__builtins__"):
        expect(refused(compile_user, src, exc=SyntaxError), src)
    compile_user(b"if __name__ == '__main__':\n    pass\n")
    g = {"__builtins__": dict(G["state"]["builtins"])}
    exec(compile_user(b"r = (1).real\n"), g)
    expect(g["r"] == 1, "a rewritten read runs")
    expect(refused(exec, compile_user(b"(1).__dict__\n"), g),
           "a dunder read is refused at run time")


def test_precompile_and_execute():
    code, error, lines = G["precompile"](b"def f(:\n")
    expect(code is None and error["type"] == "SyntaxError" and
           error["line"] == 1, f"a syntax error: {error}")
    code, error, lines = G["precompile"](b"x = 41\nx + 1\n1 / 0\n")
    expect(error is None and lines[0] == "x = 41", "compiled")
    r, w = os.pipe()
    try:
        g = {"__name__": "__main__",
             "__builtins__": dict(G["state"]["builtins"])}
        status = G["execute"](code, g, None, w)
        report = os.read(r, 65536).decode()
    finally:
        os.close(r)
        os.close(w)
    res = json.loads(report[1:])
    expect(status == 1 and report.startswith("R"), "status and tag")
    expect(res["error"]["type"] == "ZeroDivisionError" and
           res["error"]["line"] == 3, f"the error: {res['error']}")
    expect(res["variables"]["x"] == {"type": "int", "repr": "41"},
           f"variables: {res['variables']}")


def test_exit_status():
    status = G["exit_status"]
    saved = sys.stderr
    sys.stderr = io.StringIO()
    try:
        got = [status(v) for v in (None, 0, 3, 256, -1, 2**70, True, "bye")]
        printed = sys.stderr.getvalue()
    finally:
        sys.stderr = saved
    expect(got == [0, 0, 3, 0, 255, 255, 1, 1], f"exit statuses: {got}")
    expect(printed == "bye\n", "a non-int code is printed")


def lib_exec_class():
    g = {"__name__": "lib"}
    G["lib_exec"]("class K:\n    _x = 1\n", g)
    return getattr_(g["K"], "_x")


def test_library_exec():
    lib_eval = G["lib_eval"]
    expect(lib_eval("a + 1", {"a": 1}) == 2, "a library's eval")
    expect(refused(lib_eval, "a.__dict__", {"a": 1}), "rewritten")
    expect(refused(lib_exec_class, exc=AttributeError),
           "a class built by a library's exec is not the program's")
    expect(refused(lib_eval, "__import__('os')", {}, exc=SyntaxError),
           "dunder names refused")
    expect(refused(G["lib_exec"], "import os", {}, exc=ImportError),
           "the sandbox's builtins")
    foreign = compile("1", "<x>", "eval")
    expect(refused(lib_eval, foreign, {}, exc=TypeError), "foreign code")
    g = {"e": eval}
    G["lib_namespace"](g)
    expect("e" not in g, "real builtins leave a library's namespace")


def test_runtime_wrap_dir_fd():
    expect(os.open.__name__ == "at_checked", "os.open is wrapped")
    expect(refused(os.open, "x", os.O_RDONLY, dir_fd=0,
                   exc=PermissionError), "a path relative to a dir fd")
    fd = os.open(os.devnull, os.O_RDONLY)
    os.close(fd)


def test_dataclass_and_functools():
    dc = import_("dataclasses")
    make = getattr_(dc, "make_dataclass")
    expect(refused(make, "A", ["x; import os"], exc=TypeError),
           "a field name that is code")
    expect(refused(make, "A", [Liar("x=os.system('id')")], exc=TypeError),
           "a lying field name is judged by its characters")
    expect(make("A", ["x"])(1).x == 1, "an ordinary dataclass")
    wraps = getattr_(import_("functools"), "wraps")
    expect(refused(wraps, len, assigned=("__globals__",)),
           "wraps copying __globals__")
    wraps(len)(lambda: None)


class Ident(str):
    """A name that says it is an identifier and formats as its text."""

    def isidentifier(self):
        return True


CODE = "a,print('ran')"


def test_code_name():
    name = G["code_name"]
    expect(type(name(Ident("abc"))) is str, "an exact copy")
    for bad in (Ident(CODE), "a b", "class", "", 5, None):
        expect(refused(name, bad, exc=TypeError), repr(bad))
    expect(refused(G["field_name"], "__init__", exc=TypeError),
           "a dunder field")
    expect(G["field_name"]("_x") == "_x", "a private field")


def test_make_dataclass_names():
    make = getattr_(import_("dataclasses"), "make_dataclass")
    for spec in ((Ident(CODE), int), [Ident(CODE), int],
                 (Ident(CODE), int, None), Ident(CODE), ("__class__", int)):
        expect(refused(make, "A", [spec], exc=TypeError), repr(spec))
    A = make("A", [("x", int), ["y", int], "z"])
    expect(repr(A(1, 2, 3)) == "A(x=1, y=2, z=3)", "the field forms")


def test_dataclass_generators_get_checked_copies():
    """What the program controls between dataclass()'s start and the
    text of a generated method: annotations that lie, a field renamed
    mid-way, a Field subclass, Field's own attributes replaced."""
    import abc
    import dataclasses
    deco = getattr_(import_("dataclasses"), "dataclass")

    class Items(dict):
        def items(self):
            return [(CODE, int)]
    X = abc.ABCMeta("X", (), {"a": 1, "__annotations__": Items(a=int)})
    expect(refused(deco(init=False, repr=False), X, exc=TypeError),
           "annotations whose items() lie")
    real = dataclasses.fields(dataclasses.make_dataclass("Q", ["a"]))[0]

    class Params:
        @property
        def frozen(self):
            real.name = CODE
            return False
    B = abc.ABCMeta("B", (), {"__dataclass_fields__": {"a": real},
                              "__dataclass_params__": Params()})
    make = getattr_(import_("dataclasses"), "make_dataclass")
    expect(refused(make, "D", [], bases=(B,), exc=TypeError),
           "a field renamed while dataclasses runs")

    class F(dataclasses.Field):
        name = CODE
    expect(refused(make, "E", [("a", int, F(1, dataclasses.MISSING, True,
                                             True, None, True, None, False))],
                   exc=TypeError), "a subclass of Field")
    saved = dataclasses.Field.__dict__["name"]
    dataclasses.Field.name = property(lambda self: CODE, lambda s, v: None)
    try:
        expect(refused(make, "F", ["a"], exc=TypeError),
               "Field.name replaced")
    finally:
        dataclasses.Field.name = saved
    for frozen in (False, True):
        C = make("C", ["a", ("b", int, dataclasses.field(default=2))],
                 frozen=frozen, order=True, unsafe_hash=True, slots=True)
        c = C(1)
        expect((repr(c), c == C(1), c < C(2), hash(c) == hash(C(1)),
                dataclasses.astuple(c)) == ("C(a=1, b=2)", True, True, True,
                                            (1, 2)), f"frozen={frozen}")


def test_dataclass_attribute_readers():
    import abc
    import dataclasses
    import pprint
    dc = import_("dataclasses")
    fields, replace = getattr_(dc, "fields"), getattr_(dc, "replace")
    P = dataclasses.make_dataclass("P", ["x", ("y", int, 3)])
    p = P(1)
    expect(isinstance(fields(p)[0], dataclasses.Field), "real Field objects")
    expect(replace(p, x=5) == P(5, 3) and
           dataclasses.asdict(p) == {"x": 1, "y": 3}, "replace, asdict")
    expect(pprint.pformat(p) == "P(x=1, y=3)", "pprint")
    expect(refused(replace, p, y=1, z=2, exc=TypeError), "an unknown field")
    real = dataclasses.fields(dataclasses.make_dataclass("Q", ["x"]))[0]
    real.name = "__init__"
    X = abc.ABCMeta("X", (), {"__dataclass_fields__": {"x": real}})
    for fn in (fields, replace, dataclasses.asdict, dataclasses.astuple):
        expect(refused(fn, X(), exc=TypeError), f"{fn.__name__}: a dunder")


def test_namedtuple_names():
    import collections
    import typing
    nt = getattr_(import_("collections"), "namedtuple")
    expect(nt is collections.namedtuple, "the library's own is replaced")

    class Shape(Ident):
        def __str__(self):
            return self

        def replace(self, *a):
            return self

        def split(self, *a):
            return [self]
    for args in ((Shape(CODE), ["x"]), ("P", [Shape(CODE)]),
                 ("P", Shape(CODE))):
        expect(refused(nt, *args, exc=ValueError), repr(args))
    P = nt("P", [Shape("x"), "y"], rename=True)
    expect(P._fields == ("x", "y") and P.__module__ == __name__,
           "exact names, and the caller's module")
    T = typing.NamedTuple("T", [(Shape("a"), int)])
    expect(T._fields == ("a",) and T.__module__ == __name__,
           "typing.NamedTuple")
    expect(refused(typing.NamedTuple, "T", [(Shape(CODE), int)],
                   exc=ValueError), "typing.NamedTuple with code")


def test_enum_functional_names():
    import enum

    class Short(Ident):
        def __len__(self):
            return 1
    E = enum.Enum("E", [(Short("_generate_next_value_"), 1), ("b", 2)])
    expect([m.name for m in E] == ["b"], "a sunder name judged by its text")
    expect(E.__module__ == __name__, "the caller's module")
    F = enum.IntFlag("F", Short("a b"), module=Short("m"))
    expect([m.name for m in F] == ["a", "b"] and
           type(F.__module__) is str, "names and module as exact strs")
    expect([m.value for m in enum.Enum("G", {"x": 3})] == [3], "a mapping")
    glob = G["global_enum"]
    expect(refused(glob, enum.Enum("H", "a", module="dataclasses"),
                   exc=ValueError), "members into a library's namespace")
    saved = G["state"].get("globals")
    G["state"]["globals"] = mine = {}
    try:
        glob(enum.Enum("I", "a b", module="__main__"))
    finally:
        G["state"]["globals"] = saved
    expect(sorted(mine) == ["a", "b"], "into the program's own globals")


def test_singledispatch_evaluates_no_annotation():
    g = run_user("import functools\n"
                 "@functools.singledispatch\n"
                 "def f(x):\n    return 'base'\n"
                 "@f.register\n"
                 "def _(x: int):\n    return 'int'\n"
                 "@f.register\n"
                 "def _(x: None):\n    return 'none'\n"
                 "@f.register\n"
                 "def _(x: list | dict):\n    return 'container'\n"
                 "@f.register(str)\n"
                 "def _(x):\n    return 'str'\n"
                 "r = (f(1), f(None), f([]), f({}), f('a'), f(1.5))\n")
    expect(g["r"] == ("int", "none", "container", "container", "str",
                      "base"), f"registered by annotation: {g['r']}")
    for ann in ("'int'", "'box.append(1) or int'", "list[int]"):
        src = ("import functools\nbox = []\n"
               "@functools.singledispatch\ndef f(x):\n    pass\n"
               f"try:\n    @f.register\n    def _(x: {ann}):\n        pass\n"
               "except TypeError:\n    box.append('refused')\n")
        expect(run_user(src)["box"] == ["refused"],
               f"annotation {ann} is not evaluated")
    import functools
    lib = functools.singledispatch(lambda x: "base")
    import json
    lib.register(json.JSONDecoder)(lambda x: "decoder")
    expect(lib(json.JSONDecoder()) == "decoder", "a class")


def cpython_suggestion(names, name):
    """The name this python3's own exception printing suggests for an
    AttributeError on an object whose dir() is NAMES, or None."""
    class Obj:
        def __dir__(self):
            return list(names)
    try:
        getattr(Obj(), name)
    except AttributeError as e:
        err = io.StringIO()
        saved = sys.stderr
        sys.stderr = err
        try:
            sys.__excepthook__(type(e), e, None)
        finally:
            sys.stderr = saved
        last = err.getvalue().rstrip("\n").rpartition("\n")[2]
        mark = ". Did you mean: '"
        return last.partition(mark)[2][:-2] if mark in last else None


def test_suggestions_are_cpythons():
    """The guard's "Did you mean" is the one CPython 3.11 computes: the
    same candidate, or none, over names that probe the distance (case,
    moves, affixes, the length cap, ties, non-ASCII)."""
    if sys.version_info[:2] != (3, 11):
        return
    closest = G["closest"]
    pools = [
        ["total", "totals", "count", "Total"],
        ["append", "extend", "insert", "pop", "apend_x"],
        ["sqrt", "sin", "pow", "isqrt", "sqrtt"],
        ["a" * 39 + "b", "a" * 41, "x"],
        ["abc", "acb", "bac", "ABC"],
        ["café", "cafe", "caffé", "ĉafé"],
        ["value", "values", "valeu", "vaule"],
        ["read_csv", "readcsv", "read_cs", "to_csv"],
    ]
    probes = ["totl", "TOTAL", "apend", "sqr", "a" * 40, "a" * 42, "ab",
              "cba", "cafe", "cafè", "valeus", "read_csb", "q", "Value",
              "x" * 50]
    for pool in pools:
        for probe in probes:
            want = cpython_suggestion(pool, probe)
            got = closest(sorted(pool), probe)  # dir() sorts
            expect(got == want, f"{probe!r} in {pool}: guard {got!r}, "
                   f"CPython {want!r}")
    expect(closest(["x"] * 750, "y") is None, "750 candidates or more: none")


def test_error_report_is_pythons():
    """A program's error as the run reports it: the traceback of its own
    frames with the source and carets, the suggestion, no guard frame."""
    code, error, lines = G["precompile"](
        b"def f(items):\n    return len(itemz)\n\n\nf([])\n")
    expect(error is None, "compiles")
    try:
        exec(code, {"__builtins__": G["state"]["builtins"]})
    except NameError as e:
        info = G["error_info"](e)
    want = ("Traceback (most recent call last):\n"
            '  File "<user>", line 5, in <module>\n'
            "    f([])\n"
            '  File "<user>", line 2, in f\n'
            "    return len(itemz)\n"
            "               ^^^^^\n"
            "NameError: name 'itemz' is not defined. Did you mean: "
            "'items'?\n")
    expect(info["traceback"] == want, f"traceback: {info['traceback']!r}")
    expect(info["line"] == 2, "the innermost line")
    _, err, _ = G["precompile"](b"if True:\n\tx = 1\n        y = 2\n")
    expect(err["type"] == "TabError" and err["traceback"].startswith(
        '  File "<user>", line 3\n'), f"a TabError: {err}")


def run_user(src):
    """SRC compiled as a program and run with the program's builtins, as
    prepare() and execute() do: its globals."""
    code = G["compile_user"](src.encode())
    g = {"__name__": "__main__",
         "__builtins__": dict(G["state"]["builtins"])}
    exec(code, g)
    return g


OWN_CLASSES = """
class Counter:
    _registry = []

    def __init__(self):
        self._c = 0
        self.__hidden = 5
        Counter._registry.append(self)

    @property
    def count(self):
        return self._c

    def _bump(self):
        self._c += 1
        return self.__hidden

    @classmethod
    def total(cls):
        return len(cls._registry)


class Sub(Counter):
    def _bump(self):
        return super()._bump() + 1


class Err(ValueError):
    def __init__(self, code):
        super().__init__(code)
        self._code = code


def greet():
    "Say hello."


c = Sub()
bumped = c._bump()
del c._c
setattr(c, "_c", 7)
out = (c.count, bumped, Counter.total(), c._Counter__hidden,
       Err(3)._code, c.__class__.__name__, type({}).__name__,
       greet.__doc__, greet.__name__, greet.__qualname__, Sub.__module__,
       c.__class__ is Sub)
"""


def test_owned_private_names():
    g = run_user(OWN_CLASSES)
    expect(g["out"] == (7, 6, 1, 5, 3, "Sub", "dict", "Say hello.",
                        "greet", "greet", "__main__", True),
           f"the program's own classes: {g['out']}")


def blocked(src, exc=AttributeError):
    """True if the program SRC is stopped by the guard (not by a plain
    miss: the message says so)."""
    try:
        run_user(src)
    except exc as e:
        return "not allowed in the sandbox" in str(e)
    return False


def test_unowned_private_names():
    """Names starting with '_' stay refused on everything the program did
    not define: library objects (also when stored in its own objects),
    classes a library built, subclasses of library classes, built-in types
    and module views; the type reached by __class__ reaches no further."""
    setup = ("import collections, string, random\n"
             "class Mine:\n    pass\n"
             "class Lib(collections.OrderedDict):\n"
             "    def peek(self):\n        return self._x\n"
             "class Mixed(Mine, string.Template):\n    pass\n"
             "m = Mine()\nm._lib = random.Random()\n"
             "P = collections.namedtuple('P', 'x')\n"
             "class S(super):\n    pass\n")
    for bad in ("m._lib._randbelow", "P._fields", "P(1)._asdict",
                "Lib()._x", "Lib().peek()", "Mixed('')._x", "Mixed._x",
                "Mixed.delimiter._x", "int._x", "(1)._x", "[]._x",
                "collections._sys", "m.__class__.__subclasses__",
                "m.__class__.__bases__", "m.__class__.__mro__",
                "m.__class__.__dict__", "m.__dict__", "Mine.mro",
                "collections.__class__",
                "type(m).__init__.__globals__",
                "S(collections.OrderedDict, collections.OrderedDict())._x",
                "S(Mine, m).__init__.__globals__"):
        expect(blocked(setup + f"r = {bad}\n"), bad)
    for bad in ("m._lib._x = 1", "Lib()._x = 1", "del P._fields",
                "setattr(P, '_x', 1)", "collections._x = 1"):
        expect(blocked(setup + bad + "\n"), bad)
    for bad in ("m.__name__ = 'x'", "m.__class__ = int", "m.__doc__ = 1"):
        expect(blocked(setup + bad + "\n", exc=SyntaxError), bad)
    expect(run_user(setup + "m._own = 1\nr = m._own\n")["r"] == 1,
           "and allowed on the program's own object")


def test_dataclass_slots_stays_owned():
    g = run_user("from dataclasses import dataclass\n"
                 "@dataclass(slots=True)\n"
                 "class P:\n    _x: int\n    def get(self):\n"
                 "        return self._x\n"
                 "r = (P(3).get(), P(4)._x, type(P(1)).__name__)\n")
    expect(g["r"] == (3, 4, "P"), f"a slotted dataclass: {g['r']}")
    expect(blocked("import dataclasses\n"
                   "P = dataclasses.make_dataclass('P', ['x'],"
                   " slots=True)\nr = P(1)._x\n"), "a library-made one")


def test_classes_of_one_program():
    A = run_user("class A:\n    pass\n")["A"]
    expect(G["owned"](A()), "the program's class")
    G["compile_user"](b"x = 1\n")
    expect(not G["owned"](A()), "not the class of an earlier program")


def test_naming_dunders_are_strings():
    class Odd:
        __version__ = os
        __doc__ = ["not", "a", "string"]
    expect(refused(getattr_, Odd(), "__doc__"), "a __doc__ that is a list")
    expect(refused(getattr_, Odd, "__version__"), "a __version__ module")
    expect(getattr_(import_("json"), "__name__") == "json", "a module's")


def test_future_imports_compile():
    g = run_user("from __future__ import annotations\n"
                 "def f(x: Undefined) -> int:\n    return x\n"
                 "r = f.__name__\n")
    expect(g["r"] == "f", "annotations are not evaluated")
    expect(refused(G["compile_user"], b"from __future__ import braces\n",
                   exc=SyntaxError), "not a chance")


def test_code_blob_is_what_the_child_compiles():
    src = b"class C:\n    pass\nc = C()\nc._x = 2\nprint(c._x)\n"
    blob = G["code_blob"](src)
    expect(blob is not None, "the server compiles it")
    own = G["compile_user"](src)
    code, error, lines = G["precompile"](src, False, blob)
    expect(error is None and code == own,
           "the loaded code is the child's own compile")
    expect(G["USER_CODE"].get(id(code)) is code, "and is the program's")
    for bad in (b"def f(:\n", b"x = 1\nif x is 1:\n    pass\n",
                b"__import__('os')\n"):
        expect(G["code_blob"](bad) is None,
               f"left to the child, which reports it: {bad!r}")


def test_static_imports_and_what_is_preloaded():
    got = G["static_imports"]([
        b"import math, xml.etree.ElementTree as ET\n"
        b"from collections import abc, deque\nfrom . import x\n"
        b"def f():\n    import json\n",
        b"from fractions import *\n", b"def broken(:\n"])
    expect(got == ["collections", "collections.abc", "collections.deque",
                   "fractions", "json", "math", "xml.etree.ElementTree"],
           f"static imports: {got}")
    patched = G["patched_packages"](guardload.runtime_text())
    expect({"os", "uuid", "pandas", "matplotlib"} <= patched,
           f"what the runtime policy changes: {sorted(patched)}")
    wanted = G["wanted"]
    only = ["xml.etree.ElementTree", "collections"]
    for name, want in (("xml", True), ("xml.etree", True),
                       ("xml.etree.ElementTree", True),
                       ("collections.abc", True), ("statistics", False),
                       ("uuid", True), ("pandas", True),
                       ("matplotlib.pyplot", True), ("html.parser", False)):
        expect(wanted(name, only, patched) is want,
               f"{name} preloaded: {not want}")
    expect(wanted("statistics", None, patched), "no program: every module")


def test_plot_warmup_leaves_no_figure():
    """A spare's warm-up draws a figure through pyplot; run to its end, or
    stopped at its middle step by a request (the generator closed), it
    leaves no figure open and the next figure is number 1."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy
        del numpy
    except ImportError:
        return  # no data_science libraries: nothing to warm
    g = guardload.load()
    g["adapt_plots"]()
    steps = list(g["warm_plot"]())
    expect(len(steps) == 2, f"two steps, then the end: {len(steps)}")
    expect(plt.get_fignums() == [], f"open after the warm-up: "
           f"{plt.get_fignums()}")
    half = g["warm_plot"]()
    next(half)
    next(half)
    expect(plt.get_fignums() == [1], "the middle step has its figure open")
    half.close()
    expect(plt.get_fignums() == [], "a closed warm-up closes its figure")
    expect(plt.figure().number == 1, "the run's first figure is 1")
    plt.close("all")


def test_facade_made_once_argv_per_run():
    """The zygote makes the sys facade once (its values read from sys
    then); each run sets only its argv.  The facade shows the run's argv,
    a new list each time, and the values it was made with."""
    g = guardload.load()
    g["make_facades"]()
    facade = g["state"]["facades"]["sys"]
    expect(facade.argv == [], f"before a run: {facade.argv}")
    first = ["prog.py", "a"]
    g["set_argv"](first)
    expect(facade.argv == first and facade.argv is not first,
           f"the run's argv, copied: {facade.argv}")
    g["set_argv"](["other.py"])
    expect(facade.argv == ["other.py"], f"set again: {facade.argv}")
    expect(facade.version == sys.version and facade.maxsize == sys.maxsize,
           "the values of sys")
    expect(refused(lambda: facade.modules), "sys.modules is not offered")


if __name__ == "__main__":
    sys.exit(guardload.run_tests(dict(globals())))
