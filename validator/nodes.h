/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * nodes.h - the AST node types of the live `ast` module.
 *
 * Built once per process from the running interpreter: every subclass of
 * ast.AST gets a small integer kind, its `_fields` and `_attributes` are
 * cached as interned strings, and a pointer hash maps a node's type to its
 * kind without calling into Python.
 */
#pragma once

#include "core/py.h"

struct pw_nodekind {
    char *name;       /* "Call" (owned) */
    PyObject *type;   /* the class (owned reference) */
    PyObject **names; /* _fields then _attributes, interned (owned) */
    int nfields;      /* how many of NAMES are _fields */
    int nnames;       /* _fields + _attributes */
};

struct pw_nodes {
    struct pw_nodekind *v;
    int n;
    PyTypeObject **hkeys; /* open addressing on the type pointer */
    int *hvals;
    size_t hmask;
    /* Interned position attribute names. */
    PyObject *lineno, *col_offset, *end_lineno, *end_col_offset;
};

/* The process-wide table (borrowed), built on first use; NULL with ERR if
 * the `ast` module cannot be read. */
const struct pw_nodes *pw_nodes_get(struct pw_error *err);

/* Kind of OBJ, or -1 if it is not an AST node. */
static inline int
pw_nodes_kind(const struct pw_nodes *nt, PyObject *obj)
{
    PyTypeObject *t = Py_TYPE(obj);
    size_t h = ((size_t)t >> 4) & nt->hmask;
    while (nt->hkeys[h] != NULL) {
        if (nt->hkeys[h] == t) {
            return nt->hvals[h];
        }
        h = (h + 1) & nt->hmask;
    }
    return -1;
}

/* Kind with that class name, or -1. */
int pw_nodes_find(const struct pw_nodes *nt, const char *name);
/* Index of field or attribute NAME in kind K, or -1. */
int pw_nodes_field(const struct pw_nodes *nt, int k, const char *name);
/* True if some kind has a field or attribute called NAME. */
int pw_nodes_any_field(const struct pw_nodes *nt, const char *name);
/* Interned string object for NAME if some kind has such a field (borrowed),
 * else NULL. */
PyObject *pw_nodes_field_object(const struct pw_nodes *nt, const char *name);

/* Value of attribute NAME (an interned str) of node OBJ: borrowed from the
 * node's __dict__, or NULL if absent.  Never raises. */
static inline PyObject *
pw_node_get(PyObject *obj, PyObject *name)
{
    PyObject **dp = _PyObject_GetDictPtr(obj);
    if (dp == NULL || *dp == NULL) {
        return NULL;
    }
    PyObject *v = PyDict_GetItemWithError(*dp, name); /* borrowed */
    if (v == NULL) {
        PyErr_Clear();
    }
    return v;
}
