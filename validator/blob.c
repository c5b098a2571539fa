/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * blob.c - a small program compiled for its run in C (see blob.h).
 *
 * The guard compiles a run's program from a rewritten AST (rewrite.py):
 * ast.parse, a NodeTransformer that turns every attribute read into a call
 * of $getattr and refuses what it cannot guard, the last expression made
 * an assignment to $result, compile().  For a one-line program that takes
 * the server 90 to 100 us (200 to 400 us after an idle pause); most of it
 * is building the tree as Python objects and walking it in Python.  Here
 * the same rewrite is made in place on the C-level tree of the parser, for
 * the programs that need nothing else (every other case is left to the
 * guard), and compiled from it.  Each new node has the location the
 * guard's would get (ast.copy_location, then ast.fix_missing_locations:
 * the nearest located ancestor's), so the code object is the same
 * (tests/unit/check_sandbox.c compares them).
 */
#include "config.h"

#include <string.h>

#include "validator/blob.h"
#include "validator/ctree.h"
#include "validator/nodes.h"

#include <marshal.h>

#define Py_BUILD_CORE 1
#include <internal/pycore_ast.h>
#include <internal/pycore_pyarena.h>

#define USER_FILE "<user>" /* the guard's USER_FILE */

/* Deeper trees are left to the guard: its rewrite recurses in Python
 * (two frames a level) and compile() of its objects has a depth limit of
 * its own, where they fail the run must report it as before. */
#define DEPTH_MAX 200

struct item {
    struct pw_val node;
    int depth;
};

struct rw {
    const struct pw_nodes *nt;
    pw_blob_store_refused refused;
    PyArena *arena;
    int k_attribute, k_name, k_match_class;
    PyObject *getattr_id; /* borrowed from the arena */
    PyObject *result_id;
};

static bool
dunder_prefixed(PyObject *s)
{
    return PyUnicode_Check(s) && PyUnicode_GET_LENGTH(s) >= 2 &&
           PyUnicode_READ_CHAR(s, 0) == '_' &&
           PyUnicode_READ_CHAR(s, 1) == '_';
}

/* A str owned by the arena, or NULL with an error. */
static PyObject *
arena_str(PyArena *arena, const char *s)
{
    PyObject *o = PyUnicode_InternFromString(s);
    if (o == NULL || _PyArena_AddPyObject(arena, o) < 0) {
        Py_XDECREF(o);
        return NULL;
    }
    return o;
}

/* A Name node ID with CTX at the location of AT. */
static expr_ty
name_at(const struct rw *w, PyObject *id, expr_context_ty ctx, expr_ty at)
{
    return _PyAST_Name(id, ctx, at->lineno, at->col_offset, at->end_lineno,
                       at->end_col_offset, w->arena);
}

/* Attribute read E becomes $getattr(value, 'attr'), in place: the call
 * keeps E's location, its new parts take it too. */
static int
rewrite_attribute(const struct rw *w, expr_ty e)
{
    expr_ty value = e->v.Attribute.value;
    PyObject *attr = e->v.Attribute.attr;
    expr_ty func = name_at(w, w->getattr_id, Load, e);
    expr_ty name = _PyAST_Constant(attr, NULL, e->lineno, e->col_offset,
                                   e->end_lineno, e->end_col_offset, w->arena);
    asdl_expr_seq *args = _Py_asdl_expr_seq_new(2, w->arena);
    if (func == NULL || name == NULL || args == NULL) {
        return -1;
    }
    asdl_seq_SET(args, 0, value);
    asdl_seq_SET(args, 1, name);
    e->kind = Call_kind;
    e->v.Call.func = func;
    e->v.Call.args = args;
    e->v.Call.keywords = NULL;
    return 0;
}

/* 1: NODE is rewritten or needs nothing; 0: the guard must do it; -1. */
static int
visit(const struct rw *w, const struct pw_val *node)
{
    if (node->kind == w->k_match_class) {
        return 0;
    }
    if (node->kind == w->k_name) {
        return dunder_prefixed(((expr_ty)node->p)->v.Name.id) ? 0 : 1;
    }
    if (node->kind != w->k_attribute) {
        return 1;
    }
    expr_ty e = (expr_ty)node->p;
    PyObject *attr = e->v.Attribute.attr;
    if (e->v.Attribute.ctx != Load) {
        /* The guard leaves a store of a public name as it is, unless the
         * policy refuses it; an owned name ('_x') it wraps. */
        bool plain = PyUnicode_Check(attr) && PyUnicode_GET_LENGTH(attr) > 0 &&
                     PyUnicode_READ_CHAR(attr, 0) != '_';
        const char *name = plain ? PyUnicode_AsUTF8(attr) : NULL;
        if (name == NULL) {
            PyErr_Clear();
            return 0;
        }
        return w->refused != NULL && !w->refused(name) ? 1 : 0;
    }
    if (dunder_prefixed(attr)) {
        return 0;
    }
    return rewrite_attribute(w, e) < 0 ? -1 : 1;
}

/* Push the nodes among NODE's fields (at DEPTH) onto STACK. */
static int
push_children(const struct rw *w, const struct pw_val *node, int depth,
              struct item **stack, size_t *n, size_t *cap)
{
    const struct pw_nodekind *nk = &w->nt->v[node->kind];
    for (int f = 0; node->p != NULL && f < nk->nkids; f++) {
        struct pw_val v = pw_node_field(w->nt, nk->kids[f], node->p);
        Py_ssize_t len = v.t == PW_V_SEQ ? pw_val_len(&v) : 1;
        for (Py_ssize_t i = 0; i < len; i++) {
            struct pw_val e = v.t == PW_V_SEQ ? pw_val_item(w->nt, &v, i) : v;
            if (e.t != PW_V_NODE) {
                continue;
            }
            if (*n == *cap) {
                size_t c = *cap ? *cap * 2 : 64;
                struct item *s = PyMem_Realloc(*stack, c * sizeof(**stack));
                if (s == NULL) {
                    return -1;
                }
                *stack = s;
                *cap = c;
            }
            (*stack)[(*n)++] = (struct item){e, depth + 1};
        }
    }
    return 0;
}

/* Rewrite every node of the tree; 1, 0 (the guard's) or -1. */
static int
rewrite_tree(const struct rw *w, const struct pw_ctree *t)
{
    struct item *stack = NULL;
    size_t n = 0, cap = 0;
    struct pw_val root = pw_node_root(w->nt, t);
    int rc = push_children(w, &root, 0, &stack, &n, &cap) < 0 ? -1 : 1;
    while (rc == 1 && n > 0) {
        struct item it = stack[--n];
        if (it.depth > DEPTH_MAX) {
            rc = 0;
            break;
        }
        /* The children first: the rewrite changes the node's kind. */
        rc = push_children(w, &it.node, it.depth, &stack, &n, &cap) < 0
                 ? -1
                 : visit(w, &it.node);
    }
    PyMem_Free(stack);
    return rc;
}

/* The module's last statement, an expression, becomes $result = it. */
static int
keep_result(const struct rw *w, const struct pw_ctree *t)
{
    asdl_stmt_seq *body = ((mod_ty)t->mod)->v.Module.body;
    Py_ssize_t len = asdl_seq_LEN(body);
    stmt_ty last = len > 0 ? asdl_seq_GET(body, len - 1) : NULL;
    if (last == NULL || last->kind != Expr_kind) {
        return 0;
    }
    expr_ty value = last->v.Expr.value;
    expr_ty target =
        _PyAST_Name(w->result_id, Store, last->lineno, last->col_offset,
                    last->end_lineno, last->end_col_offset, w->arena);
    asdl_expr_seq *targets = _Py_asdl_expr_seq_new(1, w->arena);
    if (target == NULL || targets == NULL) {
        return -1;
    }
    asdl_seq_SET(targets, 0, target);
    last->kind = Assign_kind;
    last->v.Assign.targets = targets;
    last->v.Assign.value = value;
    last->v.Assign.type_comment = NULL;
    return 0;
}

/* Sources the C parser would read otherwise than ast.parse of bytes. */
static bool
source_plain(const char *src, size_t len)
{
    if (memchr(src, '\0', len) != NULL ||
        (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0)) {
        return false;
    }
    /* A coding declaration is on line 1 or 2. */
    const char *nl = memchr(src, '\n', len);
    nl =
        nl != NULL ? memchr(nl + 1, '\n', len - (size_t)(nl + 1 - src)) : NULL;
    size_t head = nl != NULL ? (size_t)(nl - src) : len;
    for (size_t i = 0; i + 6 <= head; i++) {
        if (memcmp(src + i, "coding", 6) == 0) {
            return false;
        }
    }
    return true;
}

/* Parse, rewrite and compile SRC: a code object, NULL (an exception set,
 * or none when the guard must do it). */
static PyObject *
compile_rewritten(const char *src, pw_blob_store_refused refused)
{
    struct pw_error err = {0};
    const struct pw_nodes *nt = pw_nodes_get(&err);
    PW_PYAUTO PyObject *file = PyUnicode_FromString(USER_FILE);
    struct pw_ctree t = {0};
    if (nt == NULL || file == NULL || pw_ctree_parse(src, file, &t) < 0) {
        return NULL;
    }
    struct rw w = {.nt = nt,
                   .refused = refused,
                   .arena = t.arena,
                   .k_attribute = pw_nodes_find(nt, "Attribute"),
                   .k_name = pw_nodes_find(nt, "Name"),
                   .k_match_class = pw_nodes_find(nt, "MatchClass"),
                   .getattr_id = arena_str(t.arena, "$getattr"),
                   .result_id = arena_str(t.arena, "$result")};
    PyObject *code = NULL;
    if (w.getattr_id != NULL && w.result_id != NULL &&
        rewrite_tree(&w, &t) == 1 && keep_result(&w, &t) == 0) {
        code = pw_ctree_compile(&t, file);
    }
    pw_ctree_free(&t);
    return code;
}

/* The warnings filters with ACTION first for every warning (inserted), or
 * that entry removed again (ACTION NULL).  0 or -1. */
/* The warnings module as sys.modules has it (imported if it is not):
 * PyImport_ImportModule goes through __import__ and the import lock, which
 * cost more than the rest of a small compile after an idle pause. */
static PyObject *
warnings_module(void)
{
    static PyObject *name; /* interned, kept for the process */
    if (name == NULL &&
        (name = PyUnicode_InternFromString("warnings")) == NULL) {
        return NULL;
    }
    PyObject *mod = PyImport_GetModule(name);
    return mod != NULL || PyErr_Occurred() ? mod : PyImport_Import(name);
}

/* ON: put an "error" filter for every warning first in warnings.filters;
 * not ON: take the first filter off again. */
static int
warnings_error(bool on)
{
    static PyObject *filter; /* ("error", None, Warning, None, 0), kept */
    PW_PYAUTO PyObject *mod = warnings_module();
    PW_PYAUTO PyObject *filters =
        mod != NULL ? PyObject_GetAttrString(mod, "filters") : NULL;
    if (filters == NULL || !PyList_Check(filters)) {
        return -1;
    }
    int rc;
    if (on) {
        if (filter == NULL) {
            filter = Py_BuildValue("(sOOOi)", "error", Py_None, PyExc_Warning,
                                   Py_None, 0);
        }
        rc = filter != NULL ? PyList_Insert(filters, 0, filter) : -1;
    } else {
        rc = PyList_SetSlice(filters, 0, 1, NULL);
    }
    PW_PYAUTO PyObject *r =
        rc == 0 ? PyObject_CallMethod(mod, "_filters_mutated", NULL) : NULL;
    return r != NULL ? 0 : -1;
}

PyObject *
pw_blob_compile(const char *src, size_t len, pw_blob_store_refused refused)
{
    if (!source_plain(src, len) || warnings_error(true) < 0) {
        PyErr_Clear();
        return NULL;
    }
    PW_PYAUTO PyObject *code = compile_rewritten(src, refused);
    PyErr_Clear(); /* a warning made an error, a syntax error: the guard's */
    if (warnings_error(false) < 0) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *blob =
        code != NULL ? PyMarshal_WriteObjectToString(code, Py_MARSHAL_VERSION)
                     : NULL;
    PyErr_Clear();
    return blob;
}
