/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * nodes.h - the AST node kinds, and values read from the C-level tree.
 *
 * Built once per process from the running interpreter: every subclass of
 * ast.AST gets a small integer kind with its `_fields` and `_attributes`,
 * and every concrete kind is tied to its layout in CPython's C-level tree
 * (ctree.h), checked field by field.  The walk then reads a parsed tree in
 * place: a struct pw_val is what a field holds, seen as the `ast` module
 * would show it (a node, a list, None, a str or constant, an int).
 */
#pragma once

#include "core/py.h"
#include "validator/ctree.h"

struct pw_nodekind {
    char *name;                  /* "Call" (owned) */
    const char **names;          /* _fields then _attributes (owned array) */
    int *ids;                    /* each name's id (see pw_nodes.ids; owned) */
    const struct pw_cfield **cf; /* each name's place in the C tree, or
                                    NULL for the abstract kinds (owned) */
    const struct pw_cfield **kids; /* the fields that may hold nodes, in
                                      order (owned) */
    int nkids;
    int fam;     /* its C family (enum pw_ct_family), 0 if abstract */
    int nfields; /* how many of NAMES are _fields */
    int nnames;  /* _fields + _attributes */
};

struct pw_nodes {
    struct pw_nodekind *v;
    int n;
    const char **ids; /* every distinct field and attribute name */
    int nids;
    short *slot; /* slot[k * nids + id]: index of name ID in kind K, -1 */
    int fam_kind[PW_CF_COUNT][PW_CF_SUBKINDS]; /* C family, sub-kind: kind */
    int id_lineno, id_col_offset, id_end_lineno, id_end_col_offset;
};

/* What a value is. */
enum pw_vt {
    PW_V_ABSENT, /* no such field */
    PW_V_NONE,   /* None */
    PW_V_NODE,   /* a node of kind KIND at P (NULL for Load, Add, ...) */
    PW_V_SEQ,    /* a list: asdl sequence P of TYPE, FAM (ctree.h) */
    PW_V_OBJ,    /* a str or constant: P, borrowed from the tree */
    PW_V_INT,    /* an int: I */
};

struct pw_val {
    const void *p;
    long i;
    int kind;
    unsigned char t;    /* enum pw_vt */
    unsigned char type; /* PW_V_SEQ: element type (enum pw_ct_type) */
    unsigned char fam;  /* PW_V_SEQ: element family */
};

/* The process-wide table (borrowed), built on first use; NULL with ERR if
 * the `ast` module cannot be read. */
const struct pw_nodes *pw_nodes_get(struct pw_error *err);

/* Kind with that class name, or -1. */
int pw_nodes_find(const struct pw_nodes *nt, const char *name);
/* Index of field or attribute NAME in kind K, or -1. */
int pw_nodes_field(const struct pw_nodes *nt, int k, const char *name);
/* True if some kind has a field or attribute called NAME. */
int pw_nodes_any_field(const struct pw_nodes *nt, const char *name);
/* Id of the field or attribute NAME, or -1. */
int pw_nodes_name_id(const struct pw_nodes *nt, const char *name);

/* The module of a parsed tree. */
struct pw_val pw_node_root(const struct pw_nodes *nt,
                           const struct pw_ctree *t);

/* Length of the list SEQ, and its element I (0 <= I < length). */
static inline Py_ssize_t
pw_val_len(const struct pw_val *seq)
{
    return pw_ctree_len(seq->p);
}
struct pw_val pw_val_item(const struct pw_nodes *nt, const struct pw_val *seq,
                          Py_ssize_t i);

/* The str V holds (borrowed from the tree), or NULL if it holds none. */
static inline PyObject *
pw_val_str(const struct pw_val *v)
{
    PyObject *o = v->t == PW_V_OBJ ? (PyObject *)v->p : NULL;
    return o != NULL && PyUnicode_Check(o) ? o : NULL;
}

/* The value as a Python object: borrowed for a str or constant, Py_None
 * for None, a new int in *OWNED for an int; NULL for a node, a list or
 * nothing. */
PyObject *pw_val_object(const struct pw_val *v, PyObject **owned);

/* The value at field CF of the node struct BASE. */
struct pw_val pw_node_field(const struct pw_nodes *nt,
                            const struct pw_cfield *cf, const void *base);

/* Field or attribute ID (a name id) of NODE: ABSENT if NODE is not a node
 * or its kind has no such field. */
static inline struct pw_val
pw_node_get(const struct pw_nodes *nt, const struct pw_val *node, int id)
{
    struct pw_val absent = {NULL, 0, -1, PW_V_ABSENT, 0, 0};
    if (node->t != PW_V_NODE || id < 0 || node->p == NULL) {
        return absent;
    }
    int i = nt->slot[(size_t)node->kind * (size_t)nt->nids + (size_t)id];
    const struct pw_cfield *cf = i >= 0 ? nt->v[node->kind].cf[i] : NULL;
    return cf != NULL ? pw_node_field(nt, cf, node->p) : absent;
}
