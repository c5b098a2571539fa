# SPDX-License-Identifier: Apache-2.0
# rewrite.py - the transformer (trusted code): the program's AST
# with every attribute read routed through $getattr, and what cannot be
# guarded at run time refused at compile time.

import ast
import marshal
import warnings

from pyward_guard import common
from pyward_guard.common import (
    USER_CLASSES, USER_CODE, USER_FILE, _real_type, attr_refused, owned_name)


def mangle(cls, name):
    """NAME as the compiler spells it inside class CLS ("__x" -> "_C__x"),
    which the rewritten read must use too."""
    if cls is None or not name.startswith("__") or name.endswith("__") or \
            "." in name or not cls.lstrip("_"):
        return name
    return f"_{cls.lstrip('_')}{name}"


class Rewriter(ast.NodeTransformer):
    """Route attribute reads through $getattr and stores of names starting
    with '_' through $owned; refuse what cannot be guarded at run time
    (dunder names, forbidden attribute stores)."""

    def __init__(self, template_names=False):
        super().__init__()
        self.classes = [None]  # the class whose private names apply
        self.template_names = template_names

    def visit_ClassDef(self, node):
        for field in ("decorator_list", "bases", "keywords"):
            setattr(node, field, [self.visit(n) for n in getattr(node,
                                                                 field)])
        self.classes.append(node.name)
        node.body = [self.visit(n) for n in node.body]
        self.classes.pop()
        return node

    def fail(self, node, msg):
        err = SyntaxError(msg)
        err.lineno = getattr(node, "lineno", 1)
        err.offset = getattr(node, "col_offset", 0) + 1
        raise err

    def visit_Name(self, node):
        n = node.id
        if n.startswith("__") and n.endswith("__") and \
                n not in common.NAME_DUNDERS and not (
                    self.template_names and
                    common.TEMPLATE_NAMES.fullmatch(n)):
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
        attr = mangle(self.classes[-1], node.attr)
        if not isinstance(node.ctx, ast.Load):
            if owned_name(attr):
                verb = "setting" if isinstance(node.ctx, ast.Store) \
                    else "deleting"
                node.value = ast.copy_location(ast.Call(
                    func=ast.Name(id="$owned", ctx=ast.Load()),
                    args=[node.value, ast.Constant(attr), ast.Constant(verb)],
                    keywords=[]), node.value)
            elif attr_refused(attr):
                self.fail(node, f"setting attribute '{node.attr}' is not "
                          "allowed in the sandbox")
            return node
        call = ast.Call(func=ast.Name(id="$getattr", ctx=ast.Load()),
                        args=[node.value, ast.Constant(attr)],
                        keywords=[])
        return ast.copy_location(call, node)


def rewrite_compile(src, template_names=False):
    """SRC parsed, rewritten and compiled: the program's code object."""
    tree = ast.parse(src, USER_FILE, "exec")
    tree = Rewriter(template_names).visit(tree)
    body = tree.body
    if body and isinstance(body[-1], ast.Expr):
        last = body[-1]
        body[-1] = ast.copy_location(
            ast.Assign(targets=[ast.Name(id="$result", ctx=ast.Store())],
                       value=last.value), last)
    ast.fix_missing_locations(tree)
    return compile(tree, USER_FILE, "exec", dont_inherit=True)


def own_code(code):
    """CODE becomes the process's program: its code objects, and no class
    of another program's (one program per process, or per session call)."""
    USER_CLASSES.clear()
    USER_CODE.clear()
    todo = [code]
    while todo:
        c = todo.pop()
        USER_CODE[id(c)] = c
        todo.extend(k for k in c.co_consts
                    if isinstance(k, _real_type(code)))
    return code


def compile_user(src, template_names=False):
    return own_code(rewrite_compile(src, template_names))


def code_blob(src, template_names=False):
    """In the server, before a request is sent: SRC compiled as the child
    would compile it, marshalled for the child to load instead (a child
    compiling copies the compiler's pages from the zygote; the server's
    are its own and warm).  None when the child should compile it itself:
    an error, or a warning, which the run's stderr must show."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            code = rewrite_compile(src, template_names)
        except Exception:  # noqa: BLE001 - the child reports it
            return None
    return None if caught else marshal.dumps(code)
