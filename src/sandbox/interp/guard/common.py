# SPDX-License-Identifier: Apache-2.0
# common.py - the guard's shared ground (trusted code): the attribute
# policy, the run's state and the checks every module uses.
#
# The guard is the modules of this folder, pyward_guard.NAME for NAME.py:
# each compiled at build time and embedded in the binary, and made into
# modules once in the zygote by loader.py, which keeps them out of
# sys.modules.  A module takes what it uses from the others with
# `from pyward_guard.NAME import ...`, which only the loader resolves;
# the attribute policy below is set after the modules are loaded, so the
# modules that read it do so through this module (common.INSPECT, ...).
# The child calls prepare() before the audit hook and the seccomp filter
# are installed, then execute() (entry.py lists what guard.c calls).
# User code is compiled from a rewritten AST (rewrite.py): every
# attribute read goes through `$getattr`, a name the parser cannot
# produce, so user code can neither call nor rebind it.

import builtins as _b
import re
import sys

USER_FILE = "<user>"

# The attribute policy (rules/runtime.json "attributes"), set by
# set_attribute_policy() when the runtime policy is applied: None until
# then, so a guard used before it fails closed (a TypeError) instead of
# allowing.
INSPECT = None           # names refused as attributes
INSPECT_PREFIXES = None  # prefixes refused ("_", "f_", "co_", ...)
SAFE_DUNDERS = None      # dunders that may be read all the same
SUPER_DENY = None        # dunders refused even through super()
NAME_DUNDERS = None      # dunders a program may use as a plain name
MODULE_DENY = None       # module -> public attributes still refused
TEMPLATE_NAMES = None    # compiled "template_names" pattern
TYPE_DUNDERS = None      # dunders read as type(obj) ("__class__")
OWNED_PREFIXES = None    # prefixes of names used on the program's classes
FACADE_DUNDERS = frozenset()  # sys.__stdout__ and its kind: the facade answers

# The program's own classes, by id: those a class statement of the
# program built (see guarded_build_class), and the code objects the program
# was compiled to (compile_user), which tell a class statement of the
# program from one of a library.
USER_CLASSES = {}
USER_CODE = {}

FORMATS = ("format", "format_map")

# The run's own channels: stdin, stdout, stderr and the result channel
# (fds 0 to 3) never become a socket in the program's hands.
CHANNEL_FDS = 4
# Objects a program may not be handed, by id (rules/runtime.json: the
# library functions denied, and the real builtins the sandbox replaces).
REFUSED = {}


def is_refused(value):
    return REFUSED.get(id(value), REFUSED) is value


# The library functions a module view gives as the guard's replacements,
# by (module, name): filled by attrs.py and codegen.py as they load.
WRAPPED = {}


_real_getattr = getattr
_str_copy = str.__str__  # the slot of str itself: an exact copy
VIEW_KEY = object()
_real_import = _b.__import__
_real_type = type
_real_build_class = __build_class__
# The built-in types a class of the program may derive from (the types
# among the program's builtins, set by make_builtins), by id.
BASE_TYPES = {}
ModuleType = type(sys)
BuiltinMethod = type(len)

state = {}
# The guard's own frames under a program's code when it runs (run.py's
# execute and the exec of its code): its recursion limit counts them.
RUN_FRAMES = 2


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
    return name in INSPECT or name.startswith(INSPECT_PREFIXES)


def refuse(obj, name):
    raise AttributeError(
        f"access to attribute '{name}' is not allowed in the sandbox")


def owned_name(name):
    """A name the program may use on its own classes and their instances:
    one of the owned prefixes ("_x", "_C__x", "__x"), never a dunder."""
    return name.startswith(OWNED_PREFIXES) and name.strip("_") != "" and \
        not (name.startswith("__") and name.endswith("__"))


def user_class(obj):
    return USER_CLASSES.get(id(obj)) is obj


def owned(obj):
    """True if OBJ is one of the program's classes, an instance of one, or
    super() inside one (its lookups stay in the program's classes)."""
    t = _real_type(obj)
    if t is super:
        return user_class(obj.__thisclass__) and \
            user_class(obj.__self_class__)
    return user_class(t) or user_class(obj)


def refuse_unowned(obj, name, verb="access to"):
    raise AttributeError(
        f"{verb} attribute '{name}' is not allowed in the sandbox: names "
        "starting with '_' are only for the program's own classes and their "
        f"instances, not for a '{_real_type(obj).__name__}' object")


def naming_value(obj, name, value):
    """VALUE of the dunder NAME (allowed_dunders: __name__, __doc__,
    ...): a string or None, as those names hold; anything else an object
    answers under such a name is refused."""
    if value is None or isinstance(value, str):
        return value
    raise AttributeError(
        f"access to attribute '{name}' is not allowed in the sandbox: it "
        f"is not a string on this '{_real_type(obj).__name__}' object")


def short_repr(v, cap):
    try:
        r = repr(v)
    except BaseException as e:  # noqa: B036 - user __repr__ may raise
        r = f"<repr failed: {_real_type(e).__name__}>"
    return r if len(r) <= cap else r[:cap - 3] + "..."


def str_or(e):
    try:
        s = str(e)
    except BaseException:  # noqa: B036
        s = "<unprintable>"
    return s if len(s) <= 2000 else s[:1997] + "..."


def set_attribute_policy(rules):
    """Take the attribute policy from RULES, the "attributes" object of
    rules/runtime.json (checked strictly in C before it gets here)."""
    global INSPECT, INSPECT_PREFIXES, SAFE_DUNDERS, SUPER_DENY
    global NAME_DUNDERS, MODULE_DENY, TYPE_DUNDERS, OWNED_PREFIXES
    global TEMPLATE_NAMES, FACADE_DUNDERS
    INSPECT = frozenset(rules["inspect"] + rules["inspect_async"] +
                        rules["refused"])
    INSPECT_PREFIXES = tuple(rules["refused_prefixes"])
    SAFE_DUNDERS = frozenset(rules["allowed_dunders"])
    SUPER_DENY = frozenset(rules["super_refused"])
    NAME_DUNDERS = frozenset(rules["name_dunders"])
    MODULE_DENY = {m: tuple(v) for m, v in rules["module_refused"].items()}
    TEMPLATE_NAMES = re.compile(rules["template_names"])
    TYPE_DUNDERS = frozenset(rules["type_dunders"])
    OWNED_PREFIXES = tuple(rules["owned_prefixes"])
    FACADE_DUNDERS = frozenset(rules["facade_dunders"])


def init(allowed, any_below, import_check, at_ok, known=None):
    """In the zygote: the C callbacks for the import allow-list, the
    path check of an open relative to a directory descriptor, and whether
    a top-level module exists at all (None: every module does)."""
    state["known"] = known if known is not None else (lambda name: True)
    state["allowed"] = allowed
    state["any_below"] = any_below
    state["import_check"] = import_check
    state["at_ok"] = at_ok
