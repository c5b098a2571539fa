/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * nodes.c - node table built from the live `ast` module.
 */
#include "config.h"

#include <string.h>

#include "core/log.h"
#include "validator/nodes.h"
#include "core/util.h"

static struct pw_nodes table;
static int table_ready;

static int
names_from(PyObject *cls, const char *attr, PyObject ***out, int *n)
{
    PW_PYAUTO PyObject *seq = PyObject_GetAttrString(cls, attr);
    if (seq == NULL) {
        PyErr_Clear();
        return 0;
    }
    PW_PYAUTO PyObject *tup = PySequence_Tuple(seq);
    if (tup == NULL) {
        return -1;
    }
    Py_ssize_t m = PyTuple_GET_SIZE(tup);
    *out = pw_xrealloc(*out, sizeof(PyObject *) * (size_t)(*n + m + 1));
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *s = Py_NewRef(PyTuple_GET_ITEM(tup, i));
        if (!PyUnicode_Check(s)) {
            Py_DECREF(s);
            PyErr_SetString(PyExc_TypeError, "non-string field name");
            return -1;
        }
        PyUnicode_InternInPlace(&s);
        (*out)[(*n)++] = s;
    }
    return 0;
}

static int
add_kind(struct pw_nodes *nt, const char *name, PyObject *cls)
{
    struct pw_nodekind *k = &nt->v[nt->n];
    memset(k, 0, sizeof(*k));
    k->name = pw_xstrdup(name);
    k->type = Py_NewRef(cls);
    if (names_from(cls, "_fields", &k->names, &k->nnames) < 0) {
        return -1;
    }
    k->nfields = k->nnames;
    if (names_from(cls, "_attributes", &k->names, &k->nnames) < 0) {
        return -1;
    }
    nt->n++;
    return 0;
}

static void
hash_build(struct pw_nodes *nt)
{
    size_t cap = 64;
    while (cap < (size_t)nt->n * 4) {
        cap *= 2;
    }
    nt->hkeys = pw_xcalloc(cap, sizeof(PyTypeObject *));
    nt->hvals = pw_xcalloc(cap, sizeof(*nt->hvals));
    nt->hmask = cap - 1;
    for (int i = 0; i < nt->n; i++) {
        PyTypeObject *t = (PyTypeObject *)nt->v[i].type;
        size_t h = ((size_t)t >> 4) & nt->hmask;
        while (nt->hkeys[h] != NULL) {
            h = (h + 1) & nt->hmask;
        }
        nt->hkeys[h] = t;
        nt->hvals[h] = i;
    }
}

static int
scan_module(struct pw_nodes *nt, PyObject *mod)
{
    PW_PYAUTO PyObject *base = PyObject_GetAttrString(mod, "AST");
    /* borrowed */ PyObject *dict = PyModule_GetDict(mod);
    if (base == NULL || dict == NULL) {
        return -1;
    }
    nt->v = pw_xcalloc((size_t)PyDict_Size(dict) + 1, sizeof(*nt->v));
    Py_ssize_t pos = 0;
    PyObject *key, *val; /* borrowed */
    while (PyDict_Next(dict, &pos, &key, &val)) {
        if (!PyType_Check(val) || !PyUnicode_Check(key)) {
            continue;
        }
        int sub = PyObject_IsSubclass(val, base);
        if (sub < 0) {
            return -1;
        }
        const char *name = PyUnicode_AsUTF8(key);
        if (name == NULL) {
            return -1;
        }
        /* Skip aliases such as ast.Num whose __name__ differs. */
        const char *tn = ((PyTypeObject *)val)->tp_name;
        const char *dot = strrchr(tn, '.');
        tn = dot != NULL ? dot + 1 : tn;
        if (sub && strcmp(tn, name) == 0 && add_kind(nt, name, val) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
intern_positions(struct pw_nodes *nt)
{
    nt->lineno = PyUnicode_InternFromString("lineno");
    nt->col_offset = PyUnicode_InternFromString("col_offset");
    nt->end_lineno = PyUnicode_InternFromString("end_lineno");
    nt->end_col_offset = PyUnicode_InternFromString("end_col_offset");
    if (nt->lineno == NULL || nt->col_offset == NULL ||
        nt->end_lineno == NULL || nt->end_col_offset == NULL) {
        return -1;
    }
    return 0;
}

const struct pw_nodes *
pw_nodes_get(struct pw_error *err)
{
    if (table_ready) {
        return &table;
    }
    PW_PYAUTO PyObject *mod = pw_py_import("_ast");
    if (mod == NULL || scan_module(&table, mod) < 0 ||
        intern_positions(&table) < 0) {
        return pw_py_fetch_error(err), NULL;
    }
    if (table.n == 0) {
        pw_fail(err, PW_ERR_PYTHON, "the ast module has no node types");
        return NULL;
    }
    hash_build(&table);
    table_ready = 1;
    return &table;
}

int
pw_nodes_find(const struct pw_nodes *nt, const char *name)
{
    for (int i = 0; i < nt->n; i++) {
        if (strcmp(nt->v[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

int
pw_nodes_field(const struct pw_nodes *nt, int k, const char *name)
{
    const struct pw_nodekind *nk = &nt->v[k];
    for (int i = 0; i < nk->nnames; i++) {
        if (PyUnicode_CompareWithASCIIString(nk->names[i], name) == 0) {
            return i;
        }
    }
    return -1;
}

PyObject *
pw_nodes_field_object(const struct pw_nodes *nt, const char *name)
{
    for (int k = 0; k < nt->n; k++) {
        int i = pw_nodes_field(nt, k, name);
        if (i >= 0) {
            return nt->v[k].names[i];
        }
    }
    return NULL;
}

int
pw_nodes_any_field(const struct pw_nodes *nt, const char *name)
{
    return pw_nodes_field_object(nt, name) != NULL;
}
