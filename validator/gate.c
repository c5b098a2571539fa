/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * gate.c - which clean trees can skip the compile stage.
 */
#include "config.h"

#include <string.h>

#include "validator/gate.h"
#include "core/util.h"

enum gate {
    G_COMPILE, /* the kind may fail to compile: always compile */
    G_SAFE,    /* cannot fail to compile */
    G_IDENT,   /* safe unless its identifier field is __debug__ */
    G_ALIAS,   /* import alias: no __debug__ in name or asname, not * */
    G_FROM,    /* from-import: not from __future__ */
    G_DEF,     /* def/class: name, and no repeated keyword */
    G_CALL,    /* no repeated keyword argument */
    G_ARGS,    /* no repeated parameter */
    G_RETURN,  /* inside a function body */
    G_COMPREH, /* not an async comprehension */
};

static const struct {
    const char *kind;
    unsigned char gate;
} kinds[] = {
    {"Module", G_SAFE},
    {"Expr", G_SAFE},
    {"Assign", G_SAFE},
    {"AugAssign", G_SAFE},
    {"For", G_SAFE},
    {"While", G_SAFE},
    {"If", G_SAFE},
    {"Pass", G_SAFE},
    {"Delete", G_SAFE},
    {"Raise", G_SAFE},
    {"Import", G_SAFE},
    {"Assert", G_SAFE},
    {"ImportFrom", G_FROM},
    {"BoolOp", G_SAFE},
    {"BinOp", G_SAFE},
    {"UnaryOp", G_SAFE},
    {"Compare", G_SAFE},
    {"IfExp", G_SAFE},
    {"Dict", G_SAFE},
    {"Set", G_SAFE},
    {"List", G_SAFE},
    {"Tuple", G_SAFE},
    {"Constant", G_SAFE},
    {"Subscript", G_SAFE},
    {"Slice", G_SAFE},
    {"JoinedStr", G_SAFE},
    {"FormattedValue", G_SAFE},
    {"ListComp", G_SAFE},
    {"SetComp", G_SAFE},
    {"DictComp", G_SAFE},
    {"GeneratorExp", G_SAFE},
    {"Lambda", G_SAFE},
    {"Load", G_SAFE},
    {"Store", G_SAFE},
    {"Del", G_SAFE},
    {"And", G_SAFE},
    {"Or", G_SAFE},
    {"Add", G_SAFE},
    {"Sub", G_SAFE},
    {"Mult", G_SAFE},
    {"MatMult", G_SAFE},
    {"Div", G_SAFE},
    {"Mod", G_SAFE},
    {"Pow", G_SAFE},
    {"LShift", G_SAFE},
    {"RShift", G_SAFE},
    {"BitOr", G_SAFE},
    {"BitXor", G_SAFE},
    {"BitAnd", G_SAFE},
    {"FloorDiv", G_SAFE},
    {"Invert", G_SAFE},
    {"Not", G_SAFE},
    {"UAdd", G_SAFE},
    {"USub", G_SAFE},
    {"Eq", G_SAFE},
    {"NotEq", G_SAFE},
    {"Lt", G_SAFE},
    {"LtE", G_SAFE},
    {"Gt", G_SAFE},
    {"GtE", G_SAFE},
    {"Is", G_SAFE},
    {"IsNot", G_SAFE},
    {"In", G_SAFE},
    {"NotIn", G_SAFE},
    {"Name", G_IDENT},
    {"Attribute", G_IDENT},
    {"keyword", G_IDENT},
    {"arg", G_IDENT},
    {"alias", G_ALIAS},
    {"FunctionDef", G_DEF},
    {"ClassDef", G_DEF},
    {"Call", G_CALL},
    {"arguments", G_ARGS},
    {"Return", G_RETURN},
    {"comprehension", G_COMPREH},
};

/* Interned field names (borrowed from the node table) and kinds. */
static struct {
    PyObject *id, *attr, *arg, *name, *asname, *keywords, *is_async, *module;
    PyObject *params[5]; /* posonlyargs args vararg kwonlyargs kwarg */
    int k_name, k_attribute, k_function, k_class;
} f;

static void
init_fields(const struct pw_nodes *nt)
{
    static const char *const params[] = {"posonlyargs", "args", "vararg",
                                         "kwonlyargs", "kwarg"};
    f.id = pw_nodes_field_object(nt, "id");
    f.attr = pw_nodes_field_object(nt, "attr");
    f.arg = pw_nodes_field_object(nt, "arg");
    f.name = pw_nodes_field_object(nt, "name");
    f.asname = pw_nodes_field_object(nt, "asname");
    f.keywords = pw_nodes_field_object(nt, "keywords");
    f.is_async = pw_nodes_field_object(nt, "is_async");
    f.module = pw_nodes_field_object(nt, "module");
    for (size_t i = 0; i < PW_N_ELEMENTS(params); i++) {
        f.params[i] = pw_nodes_field_object(nt, params[i]);
    }
    f.k_name = pw_nodes_find(nt, "Name");
    f.k_attribute = pw_nodes_find(nt, "Attribute");
    f.k_function = pw_nodes_find(nt, "FunctionDef");
    f.k_class = pw_nodes_find(nt, "ClassDef");
}

const unsigned char *
pw_gate_table(const struct pw_nodes *nt)
{
    static unsigned char *table;
    if (table != NULL) {
        return table;
    }
    init_fields(nt);
    /* Kind nt->n stands for "not a node" and stays G_COMPILE. */
    unsigned char *t = pw_xcalloc((size_t)nt->n + 1, 1);
    bool fields_ok = f.id != NULL && f.attr != NULL && f.arg != NULL &&
                     f.name != NULL && f.asname != NULL &&
                     f.keywords != NULL && f.is_async != NULL &&
                     f.module != NULL;
    for (size_t i = 0; i < PW_N_ELEMENTS(f.params); i++) {
        fields_ok = fields_ok && f.params[i] != NULL;
    }
    for (size_t i = 0; fields_ok && i < PW_N_ELEMENTS(kinds); i++) {
        int k = pw_nodes_find(nt, kinds[i].kind);
        if (k >= 0) {
            t[k] = kinds[i].gate;
        }
    }
    table = t;
    return table;
}

/* True unless V is a str that cannot name __debug__ (a dotted module name
 * counts if any part could). */
static bool
is_debug(PyObject *v, bool dotted)
{
    if (v == NULL || v == Py_None) {
        return false;
    }
    if (!PyUnicode_Check(v)) {
        return true;
    }
    if (!dotted && PyUnicode_GET_LENGTH(v) != 9) {
        return false;
    }
    const char *s = PyUnicode_AsUTF8(v);
    if (s == NULL) {
        PyErr_Clear();
        return true;
    }
    return strstr(s, "__debug__") != NULL;
}

/* True if two of the N strings in V are equal (or one is not a str). */
static bool
has_repeat(PyObject *const *v, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyUnicode_Check(v[i])) {
            return true;
        }
        for (Py_ssize_t j = 0; j < i; j++) {
            if (PyUnicode_Compare(v[i], v[j]) == 0) {
                return true;
            }
        }
    }
    return PyErr_Occurred() != NULL ? (PyErr_Clear(), true) : false;
}

/* Collect the identifier FIELD of each node in the list L into NAMES
 * (capacity CAP) from *N on; false if they do not fit or are odd. */
static bool
collect(PyObject *l, PyObject *field, PyObject **names, Py_ssize_t cap,
        Py_ssize_t *n)
{
    if (l == NULL || l == Py_None) {
        return true;
    }
    if (!PyList_Check(l)) {
        /* A single node (vararg, kwarg). */
        if (*n >= cap) {
            return false;
        }
        PyObject *v = pw_node_get(l, field); /* borrowed */
        names[(*n)++] = v != NULL ? v : Py_None;
        return true;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(l); i++) {
        PyObject *v = pw_node_get(PyList_GET_ITEM(l, i), field); /* borrowed */
        if (v == Py_None) {
            continue; /* **kwargs in a call */
        }
        if (*n >= cap) {
            return false;
        }
        names[(*n)++] = v != NULL ? v : Py_None;
    }
    return true;
}

/* True if the list of keyword nodes KW repeats a keyword. */
static bool
repeated_keywords(PyObject *kw)
{
    PyObject *names[32]; /* borrowed */
    Py_ssize_t n = 0;
    return !collect(kw, f.arg, names, 32, &n) || has_repeat(names, n);
}

static bool
repeated_params(PyObject *node)
{
    PyObject *names[32]; /* borrowed */
    Py_ssize_t n = 0;
    for (size_t i = 0; i < PW_N_ELEMENTS(f.params); i++) {
        if (!collect(pw_node_get(node, f.params[i]), f.arg, names, 32, &n)) {
            return true;
        }
    }
    return has_repeat(names, n);
}

/* True unless the innermost enclosing def or class of ANC[DEPTH] is a
 * def (a `return` elsewhere is a compile error). */
static bool
return_outside(const struct pw_nodes *nt, PyObject *const *anc, int depth)
{
    for (int d = depth - 1; d >= 0; d--) {
        int k = pw_nodes_kind(nt, anc[d]);
        if (k == f.k_function) {
            return false;
        }
        if (k == f.k_class) {
            return true;
        }
    }
    return true;
}

/* An alias naming __debug__, or the * of a star import (allowed only at
 * module level). */
static bool
alias_hazard(PyObject *node)
{
    PyObject *name = pw_node_get(node, f.name); /* borrowed */
    if (name == NULL || !PyUnicode_Check(name)) {
        return true;
    }
    return is_debug(name, true) ||
           is_debug(pw_node_get(node, f.asname), true) ||
           PyUnicode_CompareWithASCIIString(name, "*") == 0;
}

/* True if a from-import of MODULE (None for "from . import x") must be
 * compiled: a __future__ import, whose rules the compiler enforces. */
static bool
from_future(PyObject *module)
{
    if (module == NULL) {
        return true;
    }
    return module != Py_None &&
           (!PyUnicode_Check(module) ||
            PyUnicode_CompareWithASCIIString(module, "__future__") == 0);
}

static bool
ident_field(int k, PyObject *node)
{
    PyObject *field = k == f.k_name        ? f.id
                      : k == f.k_attribute ? f.attr
                                           : f.arg;
    return is_debug(pw_node_get(node, field), false);
}

bool
pw_gate_needs_compile(const struct pw_nodes *nt, const unsigned char *table,
                      int k, PyObject *const *anc, int depth)
{
    PyObject *node = anc[depth]; /* borrowed */
    if (depth > PW_GATE_MAX_DEPTH) {
        return true;
    }
    switch ((enum gate)table[k]) {
    case G_SAFE:
        return false;
    case G_IDENT:
        return ident_field(k, node);
    case G_ALIAS:
        return alias_hazard(node);
    case G_FROM:
        return from_future(pw_node_get(node, f.module));
    case G_DEF:
        return is_debug(pw_node_get(node, f.name), false) ||
               (k == f.k_class &&
                repeated_keywords(pw_node_get(node, f.keywords)));
    case G_CALL:
        return repeated_keywords(pw_node_get(node, f.keywords));
    case G_ARGS:
        return repeated_params(node);
    case G_RETURN:
        return return_outside(nt, anc, depth);
    case G_COMPREH: {
        PyObject *a = pw_node_get(node, f.is_async); /* borrowed */
        return a == NULL || !PyLong_Check(a) || PyLong_AsLong(a) != 0;
    }
    case G_COMPILE:
    default:
        return true;
    }
}
