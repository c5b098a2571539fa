# SPDX-License-Identifier: Apache-2.0
# attrs.py - the attribute guards (trusted code): getattr and its
# kin as the program gets them, format strings that walk attributes, and
# the library functions that read attributes by name for the program.

from collections import UserString

from pyward_guard import common
from pyward_guard.common import (
    BASE_TYPES, FORMATS, USER_CLASSES, USER_CODE, WRAPPED, BuiltinMethod,
    ModuleType, _real_build_class, _real_getattr, _real_type, attr_refused,
    exact_str, is_refused, naming_value, owned, owned_name, refuse,
    refuse_unowned, user_class)
from pyward_guard.facade import Facade
from pyward_guard.views import ModuleView, module_view

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
    if name in common.FACADE_DUNDERS and isinstance(obj, Facade):
        # sys.__stdout__ and its kind: the facade answers (the run's
        # own streams), or has no such name.
        try:
            return Facade.__getattr__(obj, name)
        except AttributeError:
            if default:
                return default[0]
            raise
    naming = False
    # The refused names and their exceptions (public names skip it all).
    if attr_refused(name):
        if name in common.TYPE_DUNDERS:
            return guarded_type(obj)
        naming = name in common.SAFE_DUNDERS
        if owned_name(name):
            if not owned(obj):
                refuse_unowned(obj, name)
        elif not naming:
            dunder = name.startswith("__") and name.endswith("__")
            if not (isinstance(obj, super) and dunder and
                    name not in common.SUPER_DENY):
                refuse(obj, name)
    try:
        value = _real_getattr(obj, name)
    except AttributeError:
        if default:
            return default[0]
        raise
    if naming:
        return naming_value(obj, name, value)
    if isinstance(value, ModuleType):
        view = module_view(value, value.__name__)
        if view is None:
            refuse(obj, name)
        return view
    if is_refused(value):
        refuse(obj, name)
    return value


def guarded_owned(obj, name, verb):
    """OBJ, if the program may set or delete its attribute NAME (a name
    starting with '_'): the rewrite routes such stores through here."""
    if not owned(obj):
        refuse_unowned(obj, name, verb)
    return obj


def guarded_build_class(func, name, *bases, **kwds):
    """__build_class__ as the program gets it: the class is built as
    usual, and recorded as the program's own when the class statement is
    in the program's code, its metaclass is type and its bases are the
    program's classes or the sandbox's built-in types.  Names starting
    with '_' are then readable on it and its instances (owned())."""
    cls = _real_build_class(func, name, *bases, **kwds)
    code = _real_getattr(func, "__code__", None)
    if USER_CODE.get(id(code)) is code and \
            _real_type(cls) is _real_type and \
            kwds.get("metaclass", _real_type) is _real_type and \
            all(user_class(b) or BASE_TYPES.get(id(b)) is b for b in bases):
        USER_CLASSES[id(cls)] = cls
    return cls


def guarded_hasattr(obj, name):
    try:
        guarded_getattr(obj, name)
    except AttributeError:
        return False
    return True


def guarded_setattr(obj, name, value):
    name = exact_str(name)
    if owned_name(name):
        guarded_owned(obj, name, "setting")
    elif attr_refused(name):
        raise AttributeError(f"setting attribute '{name}' is not allowed")
    if isinstance(obj, ModuleView):
        raise AttributeError("modules are read-only in the sandbox")
    setattr(obj, name, value)


def guarded_delattr(obj, name):
    name = exact_str(name)
    if owned_name(name):
        guarded_owned(obj, name, "deleting")
    elif attr_refused(name):
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


guarded_type.__name__ = guarded_type.__qualname__ = "type"


def guarded_attrgetter(*names):
    import operator
    names = tuple(exact_str(n) for n in names)
    for n in names:
        for part in n.split("."):
            # Names starting with '_' are judged on each object (walk).
            if (attr_refused(part) and not owned_name(part)) or \
                    part in FORMATS:
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
    if (attr_refused(name) and not owned_name(name)) or name in FORMATS:
        raise AttributeError(f"method '{name}' is not allowed")

    def methodcaller(obj):
        return guarded_getattr(obj, name)(*args, **kwargs)
    methodcaller.__name__ = "methodcaller"
    return methodcaller


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


WRAPPED.update({
    ("operator", "attrgetter"): guarded_attrgetter,
    ("operator", "methodcaller"): guarded_methodcaller,
    ("functools", "update_wrapper"): functools_wrapper("update_wrapper"),
    ("functools", "wraps"): functools_wrapper("wraps"),
})
