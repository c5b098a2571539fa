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

/* Field name ids (nodes.h) and kinds. */
static struct {
    int id, attr, arg, name, asname, keywords, is_async, module;
    int params[5]; /* posonlyargs args vararg kwonlyargs kwarg */
    int k_name, k_attribute, k_function, k_class;
} f;

static void
init_fields(const struct pw_nodes *nt)
{
    static const char *const params[] = {"posonlyargs", "args", "vararg",
                                         "kwonlyargs", "kwarg"};
    f.id = pw_nodes_name_id(nt, "id");
    f.attr = pw_nodes_name_id(nt, "attr");
    f.arg = pw_nodes_name_id(nt, "arg");
    f.name = pw_nodes_name_id(nt, "name");
    f.asname = pw_nodes_name_id(nt, "asname");
    f.keywords = pw_nodes_name_id(nt, "keywords");
    f.is_async = pw_nodes_name_id(nt, "is_async");
    f.module = pw_nodes_name_id(nt, "module");
    for (size_t i = 0; i < PW_N_ELEMENTS(params); i++) {
        f.params[i] = pw_nodes_name_id(nt, params[i]);
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
    bool fields_ok = f.id >= 0 && f.attr >= 0 && f.arg >= 0 && f.name >= 0 &&
                     f.asname >= 0 && f.keywords >= 0 && f.is_async >= 0 &&
                     f.module >= 0;
    for (size_t i = 0; i < PW_N_ELEMENTS(f.params); i++) {
        fields_ok = fields_ok && f.params[i] >= 0;
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
is_debug(const struct pw_val *val, bool dotted)
{
    if (val->t == PW_V_ABSENT || val->t == PW_V_NONE) {
        return false;
    }
    PyObject *v = pw_val_str(val); /* borrowed */
    if (v == NULL) {
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
        if (v[i] == NULL || !PyUnicode_Check(v[i])) {
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

/* The str at field FIELD of node N (borrowed from the tree), Py_None for
 * None, NULL if there is no str there. */
static PyObject *
str_field(const struct pw_nodes *nt, const struct pw_val *n, int field)
{
    struct pw_val v = pw_node_get(nt, n, field);
    return v.t == PW_V_OBJ    ? (PyObject *)v.p
           : v.t == PW_V_NONE ? Py_None
                              : NULL;
}

/* Collect the identifier FIELD of each node in the list L into NAMES
 * (capacity CAP) from *N on; false if they do not fit. */
static bool
collect(const struct pw_nodes *nt, const struct pw_val *l, int field,
        PyObject **names, Py_ssize_t cap, Py_ssize_t *n)
{
    if (l->t == PW_V_ABSENT || l->t == PW_V_NONE) {
        return true;
    }
    if (l->t != PW_V_SEQ) {
        /* A single node (vararg, kwarg). */
        if (*n >= cap) {
            return false;
        }
        PyObject *v = str_field(nt, l, field); /* borrowed */
        names[(*n)++] = v != NULL ? v : Py_None;
        return true;
    }
    for (Py_ssize_t i = 0; i < pw_val_len(l); i++) {
        struct pw_val e = pw_val_item(nt, l, i);
        PyObject *v = str_field(nt, &e, field); /* borrowed */
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
repeated_keywords(const struct pw_nodes *nt, const struct pw_val *kw)
{
    PyObject *names[32]; /* borrowed */
    Py_ssize_t n = 0;
    return !collect(nt, kw, f.arg, names, 32, &n) || has_repeat(names, n);
}

static bool
repeated_params(const struct pw_nodes *nt, const struct pw_val *node)
{
    PyObject *names[32]; /* borrowed */
    Py_ssize_t n = 0;
    for (size_t i = 0; i < PW_N_ELEMENTS(f.params); i++) {
        struct pw_val l = pw_node_get(nt, node, f.params[i]);
        if (!collect(nt, &l, f.arg, names, 32, &n)) {
            return true;
        }
    }
    return has_repeat(names, n);
}

/* True unless the innermost enclosing def or class of ANC[DEPTH] is a
 * def (a `return` elsewhere is a compile error). */
static bool
return_outside(const struct pw_val *anc, int depth)
{
    for (int d = depth - 1; d >= 0; d--) {
        int k = anc[d].t == PW_V_NODE ? anc[d].kind : -1;
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
alias_hazard(const struct pw_nodes *nt, const struct pw_val *node)
{
    struct pw_val name = pw_node_get(nt, node, f.name);
    struct pw_val asname = pw_node_get(nt, node, f.asname);
    PyObject *s = pw_val_str(&name); /* borrowed */
    if (s == NULL) {
        return true;
    }
    return is_debug(&name, true) || is_debug(&asname, true) ||
           PyUnicode_CompareWithASCIIString(s, "*") == 0;
}

/* True if a from-import of MODULE (None for "from . import x") must be
 * compiled: a __future__ import, whose rules the compiler enforces. */
static bool
from_future(const struct pw_val *module)
{
    if (module->t == PW_V_ABSENT) {
        return true;
    }
    PyObject *m = pw_val_str(module); /* borrowed */
    return module->t != PW_V_NONE &&
           (m == NULL ||
            PyUnicode_CompareWithASCIIString(m, "__future__") == 0);
}

static bool
ident_field(const struct pw_nodes *nt, int k, const struct pw_val *node)
{
    int field = k == f.k_name ? f.id : k == f.k_attribute ? f.attr : f.arg;
    struct pw_val v = pw_node_get(nt, node, field);
    return is_debug(&v, false);
}

static bool
def_hazard(const struct pw_nodes *nt, int k, const struct pw_val *node)
{
    struct pw_val name = pw_node_get(nt, node, f.name);
    struct pw_val kw = pw_node_get(nt, node, f.keywords);
    return is_debug(&name, false) ||
           (k == f.k_class && repeated_keywords(nt, &kw));
}

static bool
async_comprehension(const struct pw_nodes *nt, const struct pw_val *node)
{
    struct pw_val a = pw_node_get(nt, node, f.is_async);
    return a.t != PW_V_INT || a.i != 0;
}

bool
pw_gate_needs_compile(const struct pw_nodes *nt, const unsigned char *table,
                      int k, const struct pw_val *anc, int depth)
{
    const struct pw_val *node = &anc[depth];
    if (depth > PW_GATE_MAX_DEPTH) {
        return true;
    }
    switch ((enum gate)table[k]) {
    case G_SAFE:
        return false;
    case G_IDENT:
        return ident_field(nt, k, node);
    case G_ALIAS:
        return alias_hazard(nt, node);
    case G_FROM: {
        struct pw_val m = pw_node_get(nt, node, f.module);
        return from_future(&m);
    }
    case G_DEF:
        return def_hazard(nt, k, node);
    case G_CALL: {
        struct pw_val kw = pw_node_get(nt, node, f.keywords);
        return repeated_keywords(nt, &kw);
    }
    case G_ARGS:
        return repeated_params(nt, node);
    case G_RETURN:
        return return_outside(anc, depth);
    case G_COMPREH:
        return async_comprehension(nt, node);
    case G_COMPILE:
    default:
        return true;
    }
}
