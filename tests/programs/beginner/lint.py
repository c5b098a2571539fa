# SPDX-License-Identifier: Apache-2.0
"""Check that the beginner programs stay within what the sandbox offers.

Usage: lint.py PROFILES_JSON PROGRAM.py...
Prints one line per problem and exits 1 if there is any:
- a name read that is neither bound in the program nor a sandbox builtin;
- type() called with other than one argument;
- an underscore-prefixed name, parameter, alias or attribute, other than
  dunder method definitions in a class, `__name__` read in the main guard,
  `super().__init__`, private attributes (`self._x`, `self.__x`), private
  methods and class attributes in a class body, and reading the dunders
  rules/runtime.json lets a program read (`__name__`, `__doc__`,
  `__class__`, ...);
- an import outside the `basic` profile, or a star import;
- str.format / format_map (blocked by the guarded getattr);
- a program shorter than 5 or longer than 60 lines.
"""
import ast
import builtins
import json
import sys

SANDBOX_BUILTINS = set("""
None False True Ellipsis abs bool bytes callable chr complex divmod float
hash hex id int isinstance issubclass len oct ord pow range repr round slice
sorted str tuple zip setattr delattr sum min max enumerate map filter
reversed any all list dict set frozenset print input iter next type object
super property staticmethod classmethod hasattr getattr
""".split())
SANDBOX_BUILTINS |= {
    n for n in dir(builtins)
    if n[0].isupper() and n.endswith(("Error", "Exception", "Warning"))
    and "Group" not in n
} | {"StopIteration", "GeneratorExit", "KeyboardInterrupt", "SystemExit"}


def basic_modules(path):
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return {m for p in data["profiles"] if p["name"] == "basic"
            for m in p["modules"]} | set(data.get("always", ()))


def allowed_module(name, basic):
    return any(name == m or name.startswith(m + ".") for m in basic)


def bound_names(tree):
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
            if node.name:
                bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
    return bound


# The dunders a program may read (rules/runtime.json), set by main().
DUNDERS = set()


def private(name):
    """A name starting with '_' that is no dunder (and not '_' alone)."""
    return name.startswith("_") and name.strip("_") != "" and not (
        name.startswith("__") and name.endswith("__"))


def readable_dunders(profiles_path):
    import os
    path = os.path.join(os.path.dirname(profiles_path), "runtime.json")
    with open(path, encoding="utf-8") as fh:
        attrs = json.load(fh)["attributes"]
    return set(attrs["allowed_dunders"]) | set(attrs["type_dunders"])


def is_super_init(node):
    return (node.attr == "__init__" and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "super")


def check_node(node, bound, methods, basic):
    if isinstance(node, ast.Name):
        if node.id.startswith("_") and node.id != "__name__" and \
                id(node) not in methods:
            yield f"name {node.id}"
        if node.id == "__name__" and not isinstance(node.ctx, ast.Load):
            yield "binds __name__"
        if (isinstance(node.ctx, ast.Load) and node.id not in bound
                and node.id not in SANDBOX_BUILTINS
                and node.id != "__name__"):
            yield f"builtin {node.id} is not in the sandbox"
    elif isinstance(node, ast.Attribute):
        readable = isinstance(node.ctx, ast.Load) and node.attr in DUNDERS
        if node.attr.startswith("_") and not is_super_init(node) and \
                not private(node.attr) and not readable:
            yield f"attribute {node.attr}"
        if node.attr in ("format", "format_map"):
            yield f"str.{node.attr}"
    elif isinstance(node, ast.FunctionDef) and node.name.startswith("_"):
        dunder = node.name.startswith("__") and node.name.endswith("__")
        if not ((dunder or private(node.name)) and id(node) in methods):
            yield f"def {node.name}"
    elif isinstance(node, ast.arg) and node.arg.startswith("_"):
        yield f"parameter {node.arg}"
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            modules = [node.module or ""]
        for m in modules:
            if not allowed_module(m, basic):
                yield f"import {m} is outside the basic profile"
        for a in node.names:
            if a.name == "*" or (a.asname or "").startswith("_"):
                yield "star import or private alias"
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "type" and len(node.args) != 1:
            yield "type() with other than one argument"


def check(path, basic):
    with open(path, encoding="utf-8") as fh:
        src = fh.read()
    lines = src.count("\n")
    if not 5 <= lines <= 60:
        yield f"{lines} lines"
    tree = ast.parse(src, path)
    bound = bound_names(tree)
    # Methods, and the private names a class body assigns.
    methods = {
        id(b) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
        for b in node.body if isinstance(b, ast.FunctionDef)
    } | {
        id(t) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
        for b in node.body if isinstance(b, ast.Assign)
        for t in b.targets if isinstance(t, ast.Name) and private(t.id)
    }
    for node in ast.walk(tree):
        yield from check_node(node, bound, methods, basic)


def main(argv):
    basic = basic_modules(argv[1])
    DUNDERS.update(readable_dunders(argv[1]))
    bad = 0
    for path in argv[2:]:
        for problem in check(path, basic):
            print(f"{path}: {problem}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
