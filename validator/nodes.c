/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * nodes.c - node table built from the live `ast` module and tied to the
 * C-level tree's layout (ctree.c).
 */
#include "config.h"

#include <string.h>

#include "core/log.h"
#include "validator/nodes.h"
#include "core/util.h"

static struct pw_nodes table;
static int table_ready;

static int
names_from(PyObject *cls, const char *attr, const char ***out, int *n)
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
    *out = pw_xrealloc(*out, sizeof(char *) * (size_t)(*n + m + 1));
    for (Py_ssize_t i = 0; i < m; i++) {
        /* borrowed */ PyObject *s = PyTuple_GET_ITEM(tup, i);
        const char *u = PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : NULL;
        if (u == NULL) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "non-string field name");
            return -1;
        }
        (*out)[(*n)++] = pw_xstrdup(u);
    }
    return 0;
}

static int
add_kind(struct pw_nodes *nt, const char *name, PyObject *cls)
{
    struct pw_nodekind *k = &nt->v[nt->n];
    memset(k, 0, sizeof(*k));
    k->name = pw_xstrdup(name);
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

/* Give every distinct name an id, and fill the kind-by-id slot table. */
static void
build_ids(struct pw_nodes *nt)
{
    for (int k = 0; k < nt->n; k++) {
        struct pw_nodekind *nk = &nt->v[k];
        nk->ids = pw_xcalloc((size_t)nk->nnames + 1, sizeof(int));
        for (int i = 0; i < nk->nnames; i++) {
            int id = pw_nodes_name_id(nt, nk->names[i]);
            if (id < 0) {
                nt->ids = pw_xrealloc(nt->ids,
                                      sizeof(char *) * (size_t)(nt->nids + 1));
                nt->ids[nt->nids] = nk->names[i];
                id = nt->nids++;
            }
            nk->ids[i] = id;
        }
    }
    size_t cells = (size_t)nt->n * (size_t)nt->nids;
    nt->slot = pw_xcalloc(cells + 1, sizeof(short));
    memset(nt->slot, 0xff, (cells + 1) * sizeof(short)); /* -1 */
    for (int k = 0; k < nt->n; k++) {
        for (int i = 0; i < nt->v[k].nnames; i++) {
            nt->slot[(size_t)k * (size_t)nt->nids + (size_t)nt->v[k].ids[i]] =
                (short)i;
        }
    }
    nt->id_lineno = pw_nodes_name_id(nt, "lineno");
    nt->id_col_offset = pw_nodes_name_id(nt, "col_offset");
    nt->id_end_lineno = pw_nodes_name_id(nt, "end_lineno");
    nt->id_end_col_offset = pw_nodes_name_id(nt, "end_col_offset");
}

/* Tie kind K to its C layout CK: every name of the one must be a field of
 * the other, and nothing more. */
static int
tie_kind(struct pw_nodekind *nk, const struct pw_ckind *ck,
         struct pw_error *err)
{
    if (ck->nf != nk->nnames) {
        return pw_fail(err, PW_ERR_PYTHON,
                       "ast.%s has %d fields and attributes, the C-level "
                       "tree pyward was built for has %d",
                       nk->name, nk->nnames, ck->nf);
    }
    nk->cf =
        pw_xcalloc((size_t)nk->nnames + 1, sizeof(const struct pw_cfield *));
    for (int i = 0; i < nk->nnames; i++) {
        for (int j = 0; j < ck->nf && nk->cf[i] == NULL; j++) {
            if (strcmp(ck->f[j].name, nk->names[i]) == 0) {
                nk->cf[i] = &ck->f[j];
            }
        }
        if (nk->cf[i] == NULL) {
            return pw_fail(err, PW_ERR_PYTHON,
                           "ast.%s.%s is not in the C-level tree pyward was "
                           "built for",
                           nk->name, nk->names[i]);
        }
    }
    nk->kids =
        pw_xcalloc((size_t)nk->nfields + 1, sizeof(const struct pw_cfield *));
    for (int i = 0; i < nk->nfields; i++) {
        unsigned char t = nk->cf[i]->type;
        if (t != PW_CT_OBJ && t != PW_CT_OBJSEQ && t != PW_CT_INT) {
            nk->kids[nk->nkids++] = nk->cf[i];
        }
    }
    return 0;
}

static int
tie_ctree(struct pw_nodes *nt, struct pw_error *err)
{
    memset(nt->fam_kind, 0xff, sizeof(nt->fam_kind)); /* -1 */
    int n = 0;
    const struct pw_ckind *ck = pw_ctree_kinds(&n);
    for (int i = 0; i < n; i++) {
        int k = pw_nodes_find(nt, ck[i].name);
        if (k < 0) {
            return pw_fail(err, PW_ERR_PYTHON,
                           "the ast module has no %s, which the C-level tree "
                           "pyward was built for has",
                           ck[i].name);
        }
        if (tie_kind(&nt->v[k], &ck[i], err) < 0) {
            return -1;
        }
        nt->fam_kind[ck[i].fam][ck[i].sub] = k;
        nt->v[k].fam = ck[i].fam;
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
    if (mod == NULL || scan_module(&table, mod) < 0) {
        return pw_py_fetch_error(err), NULL;
    }
    if (table.n == 0) {
        pw_fail(err, PW_ERR_PYTHON, "the ast module has no node types");
        return NULL;
    }
    build_ids(&table);
    if (tie_ctree(&table, err) < 0) {
        return NULL;
    }
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
        if (strcmp(nk->names[i], name) == 0) {
            return i;
        }
    }
    return -1;
}

int
pw_nodes_name_id(const struct pw_nodes *nt, const char *name)
{
    for (int i = 0; i < nt->nids; i++) {
        if (strcmp(nt->ids[i], name) == 0) {
            return i;
        }
    }
    return -1;
}

int
pw_nodes_any_field(const struct pw_nodes *nt, const char *name)
{
    return pw_nodes_name_id(nt, name) >= 0;
}

/* ---- values ------------------------------------------------------- */

static struct pw_val
node_val(const struct pw_nodes *nt, int fam, const void *p)
{
    struct pw_val v = {p, 0, -1, PW_V_NONE, 0, 0};
    if (p != NULL) {
        v.t = PW_V_NODE;
        v.kind = nt->fam_kind[fam][pw_ctree_sub(fam, p)];
    }
    return v;
}

static struct pw_val
enum_val(const struct pw_nodes *nt, int fam, int e)
{
    struct pw_val v = {NULL, 0, -1, PW_V_NODE, 0, 0};
    v.kind = e > 0 && e < PW_CF_SUBKINDS ? nt->fam_kind[fam][e] : -1;
    v.t = v.kind >= 0 ? PW_V_NODE : PW_V_NONE;
    return v;
}

static struct pw_val
obj_val(PyObject *o)
{
    struct pw_val v = {o, 0, -1, o != NULL ? PW_V_OBJ : PW_V_NONE, 0, 0};
    return v;
}

struct pw_val
pw_node_field(const struct pw_nodes *nt, const struct pw_cfield *cf,
              const void *base)
{
    const char *at = (const char *)base + cf->off;
    struct pw_val v = {NULL, 0, -1, PW_V_SEQ, 0, cf->fam};
    switch ((enum pw_ct_type)cf->type) {
    case PW_CT_NODE:
        return node_val(nt, cf->fam, *(void *const *)at);
    case PW_CT_ENUM:
        return enum_val(nt, cf->fam, *(const int *)at);
    case PW_CT_OBJ:
        return obj_val(*(PyObject *const *)at);
    case PW_CT_INT:
        v.t = PW_V_INT;
        v.i = *(const int *)at;
        return v;
    case PW_CT_SEQ:
        v.type = PW_CT_NODE;
        break;
    case PW_CT_ENUMSEQ:
        v.type = PW_CT_ENUM;
        break;
    case PW_CT_OBJSEQ:
        v.type = PW_CT_OBJ;
        break;
    }
    v.p = *(void *const *)at;
    return v;
}

struct pw_val
pw_val_item(const struct pw_nodes *nt, const struct pw_val *seq, Py_ssize_t i)
{
    switch ((enum pw_ct_type)seq->type) {
    case PW_CT_ENUM:
        return enum_val(nt, seq->fam, pw_ctree_int(seq->p, i));
    case PW_CT_OBJ:
        return obj_val((PyObject *)pw_ctree_ptr(seq->p, i));
    default:
        /* A NULL element is a None in the list (Dict.keys for **d). */
        return node_val(nt, seq->fam, pw_ctree_ptr(seq->p, i));
    }
}

struct pw_val
pw_node_root(const struct pw_nodes *nt, const struct pw_ctree *t)
{
    return node_val(nt, PW_CF_MOD, t->mod);
}

PyObject *
pw_val_object(const struct pw_val *v, PyObject **owned)
{
    *owned = NULL;
    switch ((enum pw_vt)v->t) {
    case PW_V_OBJ:
        return (PyObject *)v->p;
    case PW_V_NONE:
        return Py_None;
    case PW_V_INT:
        *owned = PyLong_FromLong(v->i);
        if (*owned == NULL) {
            PyErr_Clear();
        }
        return *owned;
    default:
        return NULL;
    }
}
