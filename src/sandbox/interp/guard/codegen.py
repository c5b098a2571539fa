# SPDX-License-Identifier: Apache-2.0
# codegen.py - names that reach generated source (trusted code).
#
# Some library functions build Python source from the names they are given
# and compile it: dataclasses (every generated __init__, __repr__, __eq__,
# __hash__, __setattr__ is text made of field names) and
# collections.namedtuple (its __new__).  Others turn names into class
# attributes: the Enum functional API, typing.NamedTuple (through
# namedtuple).  Their code runs in a library frame, where the audit hook
# checks only the names the compiled code uses, so a name that is really
# code ("a,print(1)") would run as the library's.
#
# One rule for all of them (code_name): a name is judged by its real
# characters, on an exact str copy (a str subclass can say what a check
# wants to hear in isidentifier, __eq__, __format__ or __repr__), with
# str's own methods called unbound.  The checks sit where the text is
# made, not where the program calls in: dataclasses' generators get copies
# of their fields made here, read through Field's own slots (the program
# may replace Field's attributes, forge __dataclass_fields__, or change a
# field while the library runs its code), so nothing the program can reach
# between the check and the text changes the text.  The library functions
# are replaced in their own modules in the zygote (harden_codegen), so the
# library's own calls meet the checks too.
#
# One library function evaluates text the program writes:
# functools.singledispatch's register() without a class takes the class
# from the function's first annotation through typing.get_type_hints,
# which evaluates a string annotation with eval() in a library frame, its
# attribute reads unseen by the guard.  For anything but a library's own
# function, register() takes the annotation as it is and evaluates none.

import keyword as _keyword
import sys

from pyward_guard.common import (
    USER_CLASSES, WRAPPED, _real_getattr, _real_type, exact_str, short_repr,
    state, user_class)

_isidentifier = str.isidentifier
_iskeyword = _keyword.iskeyword
_startswith = str.startswith
_endswith = str.endswith


def code_name(x, what="name"):
    """X's characters as an exact str that is an identifier and not a
    keyword, or TypeError."""
    n = exact_str(x, what) if isinstance(x, str) else x
    if _real_type(n) is not str or not _isidentifier(n) or _iskeyword(n):
        raise TypeError(f"{what} {short_repr(n, 60)} is not an identifier")
    return n


def field_name(x):
    """A dataclass field name: code_name, and no dunder (dataclasses reads
    and sets attributes by these names for the program: asdict, replace,
    __init__)."""
    n = code_name(x, "field name")
    if _startswith(n, "__") and _endswith(n, "__"):
        raise TypeError(f"field name '{n}' is not allowed in the sandbox")
    return n


# The guard's own file name: a function whose code has it is one of the
# replacements below (the guard is loaded more than once in a test
# process; the zygote loads it once).
def unwrapped(fn):
    code = _real_getattr(fn, "__code__", None)
    while _real_getattr(code, "co_filename", None) == GUARD_CODE_FILE:
        fn = fn.__wrapped__
        code = _real_getattr(fn, "__code__", None)
    return fn


GUARD_CODE_FILE = unwrapped.__code__.co_filename


def replacement(new, real):
    new.__wrapped__ = real
    for k in ("__name__", "__qualname__", "__doc__", "__module__"):
        setattr(new, k, _real_getattr(real, k, None))
    return new


def check_args(fn, names):
    """FN takes NAMES, as the replacement that calls it assumes; anything
    else is a library this guard does not know: the zygote stops."""
    code = fn.__code__
    got = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    if got != names:
        raise RuntimeError(
            f"{fn.__module__}.{fn.__qualname__}{got} is not the function "
            "the guard knows: the sandbox cannot check the names it gets")


# --- dataclasses ---------------------------------------------------------

DC = {}  # the real dataclasses objects harden_dataclasses() works with


def field_copy(f):
    """A copy of the dataclasses.Field F for the library's generators: its
    slots read through Field's own descriptors (taken in the zygote), its
    name checked.  A SimpleNamespace: its type's attributes cannot be
    replaced, and the copy is the generator's alone."""
    if _real_type(f) is not DC["Field"]:
        raise TypeError("dataclass fields must be dataclasses.Field "
                        "objects in the sandbox")
    values = {}
    for name, slot in DC["slots"]:
        try:
            values[name] = slot.__get__(f, DC["Field"])
        except AttributeError:
            pass
    values["name"] = field_name(values.get("name"))
    return DC["namespace"](**values)


def field_copies(fields):
    return [field_copy(f) for f in fields]


def checked_fields(cls):
    """The fields of the dataclass CLS all pass field_copy, or TypeError:
    no class made by the program leaves dataclass() with one that would
    not."""
    found = _real_getattr(cls, "__dataclass_fields__", None)
    if found is not None:
        field_copies(found.values())
    return cls


def harden_dataclasses():
    import dataclasses as dc
    import types
    ns = dc.__dict__
    Field = dc.Field
    DC.update(Field=Field, namespace=types.SimpleNamespace,
              slots=tuple((n, Field.__dict__[n]) for n in Field.__slots__))
    real = {n: unwrapped(ns[n]) for n in (
        "_init_fn", "_repr_fn", "_tuple_str", "_frozen_get_del_attr",
        "_hash_fn", "_create_fn", "fields")}
    # Every generated method's text is made by these, from the fields
    # they are given (_hash_fn and _cmp_fn's from _tuple_str's).
    check_args(real["_init_fn"], (
        "fields", "std_fields", "kw_only_fields", "frozen", "has_post_init",
        "self_name", "globals", "slots"))
    check_args(real["_repr_fn"], ("fields", "globals"))
    check_args(real["_tuple_str"], ("obj_name", "fields"))
    check_args(real["_frozen_get_del_attr"], ("cls", "fields", "globals"))
    check_args(real["_hash_fn"], ("fields", "globals"))
    check_args(real["_create_fn"], ("name", "args", "body", "globals",
                                    "locals", "return_type"))
    check_args(real["fields"], ("class_or_instance",))

    def _init_fn(fields, std_fields, kw_only_fields, frozen, has_post_init,
                 self_name, globals, slots):
        fields = field_copies(fields)
        std_fields = field_copies(std_fields)
        kw_only_fields = field_copies(kw_only_fields)
        # "self" is the parameter's name unless a field has it.
        self_name = "__dataclass_self__" if any(
            f.name == "self" for f in fields) else "self"
        return real["_init_fn"](fields, std_fields, kw_only_fields, frozen,
                                has_post_init, self_name, globals, slots)

    def _repr_fn(fields, globals):
        return real["_repr_fn"](field_copies(fields), globals)

    def _tuple_str(obj_name, fields):
        return real["_tuple_str"](code_name(obj_name),
                                  field_copies(fields))

    def _frozen_get_del_attr(cls, fields, globals):
        return real["_frozen_get_del_attr"](cls, field_copies(fields),
                                            globals)

    def _create_fn(name, args, body, *, globals=None, locals=None,
                   **kwargs):
        # Every caller above; the names of the function and of its
        # closure's variables are text too.
        code_name(name)
        for k in locals or ():
            code_name(k)
        return real["_create_fn"](name, args, body, globals=globals,
                                  locals=locals, **kwargs)

    def fields(class_or_instance):
        # The library's own callers (asdict, astuple, _add_slots, pprint,
        # pickling of slotted classes) read attributes by these names.
        return tuple(field_copies(real["fields"](class_or_instance)))

    for n, new in (("_init_fn", _init_fn), ("_repr_fn", _repr_fn),
                   ("_tuple_str", _tuple_str),
                   ("_frozen_get_del_attr", _frozen_get_del_attr),
                   ("_create_fn", _create_fn),
                   ("fields", fields)):
        ns[n] = replacement(new, real[n])
    DC.update(real_fields=real["fields"], MISSING=dc.MISSING,
              CLASSVAR=dc._FIELD_CLASSVAR, INITVAR=dc._FIELD_INITVAR,
              is_instance=dc._is_dataclass_instance)


def dataclass_fields(class_or_instance):
    """dataclasses.fields as the program gets it: the real Field objects,
    each of them checked."""
    out = DC["real_fields"](class_or_instance)
    field_copies(out)
    return out


def dataclass_replace(obj, /, **changes):
    """dataclasses.replace, on checked copies of OBJ's fields (read once):
    the attributes it reads for the program are those names."""
    if not DC["is_instance"](obj):
        raise TypeError("replace() should be called on dataclass instances")
    found = _real_getattr(obj, "__dataclass_fields__")
    for f in field_copies(found.values()):
        if f._field_type is DC["CLASSVAR"]:
            continue
        if not f.init:
            if f.name in changes:
                raise ValueError(f'field {f.name} is declared with '
                                 'init=False, it cannot be specified with '
                                 'replace()')
            continue
        if f.name not in changes:
            if f._field_type is DC["INITVAR"] and f.default is DC["MISSING"]:
                raise ValueError(f"InitVar {f.name!r} "
                                 'must be specified with replace()')
            changes[f.name] = _real_getattr(obj, f.name)
    return obj.__class__(**changes)


def make_dataclass_spec(item):
    """One make_dataclass field: NAME, or (NAME, TYPE[, FIELD]) as any
    sequence, with NAME checked."""
    if isinstance(item, str):
        return field_name(item)
    item = tuple(item)
    if len(item) not in (2, 3):
        raise TypeError(f"Invalid field: {short_repr(item, 60)}")
    return (field_name(item[0]), *item[1:])


def dataclass_wrapper(name):
    import dataclasses
    real = _real_getattr(dataclasses, name)
    if name == "dataclass":
        def dataclass(cls=None, /, **kwargs):
            def wrap(c):
                out = checked_fields(real(c, **kwargs))
                # slots=True builds the class again from the program's
                # class: the same bases and namespace, still the program's.
                if out is not c and user_class(c) and \
                        _real_type(out) is _real_type and \
                        out.__bases__ == c.__bases__:
                    USER_CLASSES[id(out)] = out
                return out
            return wrap if cls is None else wrap(cls)
        return dataclass

    def make_dataclass(cls_name, fields, *args, **kwargs):
        cls_name = exact_str(cls_name, "class name")
        fields = [make_dataclass_spec(f) for f in fields]
        return checked_fields(real(cls_name, fields, *args, **kwargs))
    return make_dataclass


# --- collections.namedtuple, enum ---------------------------------------


def exact_names(names):
    """A str as its exact copy; a list or tuple with its str items copied
    (other items as they are: the library's own checks judge them)."""
    if isinstance(names, str):
        return exact_str(names)
    if isinstance(names, (list, tuple)):
        return [exact_str(n) if isinstance(n, str) else n for n in names]
    return names


def caller_module(depth):
    """The __name__ of the frame DEPTH levels above the caller, as the
    library would have found it with no replacement in between."""
    try:
        return sys._getframe(depth + 1).f_globals.get("__name__")
    except (AttributeError, ValueError):
        return None


def harden_namedtuple():
    import collections
    real = unwrapped(collections.namedtuple)
    check_args(real, ("typename", "field_names", "rename", "defaults",
                      "module"))

    def namedtuple(typename, field_names, *, rename=False, defaults=None,
                   module=None):
        # namedtuple checks exact strs itself (type(name) is str,
        # isidentifier, iskeyword): it gets the names' real characters.
        if isinstance(typename, str):
            typename = exact_str(typename)
        if not isinstance(field_names, str):
            field_names = list(field_names)
        field_names = exact_names(field_names)
        if module is None:
            module = caller_module(1) or "__main__"
        return real(typename, field_names, rename=rename, defaults=defaults,
                    module=module)
    # typing.NamedTuple calls it as collections.namedtuple.
    collections.namedtuple = replacement(namedtuple, real)


def enum_pairs(names):
    """The (name, value) pairs of the Enum functional API's NAMES that are
    neither a string nor a list of strings (pairs or a mapping), each name
    an exact copy, iterated once."""
    out = []
    for item in list(names):
        if isinstance(item, str):
            value = names[item]
            name = item
        else:
            name, value = item
        out.append((exact_str(name) if isinstance(name, str) else name,
                    value))
    return out


def harden_enum():
    import enum
    real = unwrapped(enum.EnumType.__dict__["_create_"])
    check_args(real, ("cls", "class_name", "names", "module", "qualname",
                      "type", "start", "boundary"))

    def _create_(cls, class_name, names, *, module=None, qualname=None,
                 type=None, start=1, boundary=None):
        # Enum's own checks (_sunder_, __dunder__, private names) read the
        # names' characters through str methods: exact copies only.
        class_name = exact_str(class_name, "class name")
        if isinstance(names, str) or (
                isinstance(names, (list, tuple)) and names and
                isinstance(names[0], str)):
            names = exact_names(names)
        else:
            names = enum_pairs(names)
        if module is None:
            # The caller of Enum(...), two frames up as the library counts.
            module = caller_module(2)
        if module is not None:
            module = exact_str(module, "module name")
        if qualname is not None:
            qualname = exact_str(qualname, "qualname")
        return real(cls, class_name, names, module=module,
                    qualname=qualname, type=type, start=start,
                    boundary=boundary)
    enum.EnumType._create_ = replacement(_create_, real)


def global_enum(cls, update_str=False):
    """enum.global_enum as the program gets it: the members go to the
    program's own globals (its module is __main__), never into a library
    module's namespace, which a class can name as its __module__."""
    import enum
    module = _real_getattr(_real_type, "__dict__")["__module__"].__get__(cls)
    if _real_type(module) is not str or module != "__main__" or \
            state.get("globals") is None:
        raise ValueError("enum.global_enum is not allowed in the sandbox "
                         "for a class of another module than the program's")
    members = {field_name(k): v for k, v in dict(cls.__members__).items()}
    if issubclass(cls, enum.Flag):
        cls.__repr__ = enum.global_flag_repr
    else:
        cls.__repr__ = enum.global_enum_repr
    if not issubclass(cls, enum.ReprEnum) or update_str:
        cls.__str__ = enum.global_str
    state["globals"].update(members)
    return cls


# --- functools.singledispatch -------------------------------------------


def dispatch_type(cls):
    """True if CLS is what register() takes as a class: a class or a union
    of classes."""
    import types
    import typing
    if isinstance(cls, type):
        return True
    if isinstance(cls, types.UnionType) or \
            typing.get_origin(cls) is typing.Union:
        return all(isinstance(a, type) for a in typing.get_args(cls))
    return False


def library_function(obj):
    """OBJ is a function whose code comes from a library's file (the
    program's code, and code compiled from strings, is named "<...>")."""
    code = _real_getattr(obj, "__code__", None) \
        if _real_type(obj) is _real_type(library_function) else None
    name = _real_getattr(code, "co_filename", None)
    return _real_type(name) is str and not _startswith(name, "<")


def guarded_register(real):
    """REAL, a dispatcher's register(), with the class of anything but a
    library's function taken from its first annotation as it is."""
    def register(cls, func=None):
        if func is not None or dispatch_type(cls) or library_function(cls):
            return real(cls, func)
        ann = _real_getattr(cls, "__annotations__", None)
        items = list(dict.items(ann)) if isinstance(ann, dict) else []
        if not items:
            raise TypeError(
                f"Invalid first argument to `register()`: {cls!r}. Use "
                "either `@register(some_class)` or plain `@register` on an "
                "annotated function.")
        ann = items[0][1]
        if ann is None:
            ann = _real_type(None)
        if not dispatch_type(ann):
            raise TypeError(
                f"Invalid annotation {short_repr(ann, 60)} for register() "
                "in the sandbox: annotations are not evaluated; name a "
                "class with @register(cls)")
        return real(ann, cls)
    return register


def harden_singledispatch():
    import functools
    real = unwrapped(functools.singledispatch)
    check_args(real, ("func",))

    def singledispatch(func):
        wrapper = real(func)
        wrapper.register = guarded_register(wrapper.register)
        return wrapper
    # singledispatchmethod calls it as a global of functools.
    functools.singledispatch = replacement(singledispatch, real)


def harden_codegen():
    """In the zygote: the library functions that build source or class
    attributes from names take them through the checks above, and
    singledispatch's register() evaluates no annotation of the
    program's."""
    harden_dataclasses()
    harden_namedtuple()
    harden_enum()
    harden_singledispatch()


for _n in ("dataclass", "make_dataclass"):
    WRAPPED[("dataclasses", _n)] = dataclass_wrapper(_n)
WRAPPED[("dataclasses", "fields")] = dataclass_fields
WRAPPED[("dataclasses", "replace")] = dataclass_replace
WRAPPED[("enum", "global_enum")] = global_enum
