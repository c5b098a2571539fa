/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * ctree.h - CPython's own C-level syntax tree, parsed and read in place.
 *
 * The validator walks the tree the interpreter's parser builds (struct
 * _mod, _stmt, _expr, ... in an arena) instead of the Python objects the
 * `ast` module makes of it: building those objects costs about as much as
 * the parse itself.  This file describes that tree's layout as data: per
 * node kind, its fields in the order of the `ast` module's `_fields`, then
 * its position attributes, each with its offset and what it holds.  The
 * node table (nodes.c) checks the description against the running
 * interpreter's `ast` module before the validator uses it.
 */
#pragma once

#include <stdbool.h>

#include "core/py.h"

/* What a field holds. */
enum pw_ct_type {
    PW_CT_NODE,    /* a node of family FAM, or NULL (None) */
    PW_CT_SEQ,     /* an asdl sequence of such nodes */
    PW_CT_ENUM,    /* an int naming a field-less node (Load, Add, Eq...) */
    PW_CT_ENUMSEQ, /* an asdl sequence of such ints (Compare.ops) */
    PW_CT_OBJ,     /* a PyObject (identifier, string, constant), or NULL */
    PW_CT_OBJSEQ,  /* an asdl sequence of identifiers */
    PW_CT_INT,     /* an int (level, is_async, positions...) */
};

/* Node families: the sum types (whose struct starts with its kind), the
 * product types (one kind each) and the enums. */
enum pw_ct_family {
    PW_CF_NONE,
    PW_CF_MOD,
    PW_CF_STMT,
    PW_CF_EXPR,
    PW_CF_EXCEPTHANDLER,
    PW_CF_PATTERN,
    PW_CF_TYPE_IGNORE,
    PW_CF_COMPREHENSION, /* first product type */
    PW_CF_ARGUMENTS,
    PW_CF_ARG,
    PW_CF_KEYWORD,
    PW_CF_ALIAS,
    PW_CF_WITHITEM,
    PW_CF_MATCH_CASE,
    PW_CF_EXPR_CONTEXT, /* first enum */
    PW_CF_BOOLOP,
    PW_CF_OPERATOR,
    PW_CF_UNARYOP,
    PW_CF_CMPOP,
    PW_CF_COUNT
};

/* Sub-kinds per family are below this (the enums and sums count from 1). */
#define PW_CF_SUBKINDS 32

struct pw_cfield {
    const char *name;
    unsigned short off; /* in the node's struct */
    unsigned char type; /* enum pw_ct_type */
    unsigned char fam;  /* element family of NODE, SEQ, ENUM, ENUMSEQ */
};

struct pw_ckind {
    const char *name;  /* the `ast` class name */
    unsigned char fam; /* enum pw_ct_family */
    unsigned char sub; /* the C kind (sums, enums); 0 for products */
    const struct pw_cfield *f;
    int nf;
};

/* The name of family FAM as the interpreter's messages give it ("expr",
 * "keyword"). */
const char *pw_ctree_family_name(int fam);

/* The described kinds (static storage). */
const struct pw_ckind *pw_ctree_kinds(int *n);

/* The sub-kind of a node of family FAM at P: its leading kind for a sum
 * type, 0 for a product type (every sum type's struct starts with its
 * kind enum; ctree.c checks). */
static inline int
pw_ctree_sub(int fam, const void *p)
{
    return fam < PW_CF_COMPREHENSION ? *(const int *)p : 0;
}

/* The head of an asdl sequence (pycore_asdl.h's _ASDL_SEQ_HEAD; ctree.c
 * checks): ELEMENTS points at its elements, pointers or ints. */
struct pw_cseq {
    Py_ssize_t size;
    void **elements;
};

/* An asdl sequence (NULL is empty): its length and elements. */
static inline Py_ssize_t
pw_ctree_len(const void *seq)
{
    return seq != NULL ? ((const struct pw_cseq *)seq)->size : 0;
}

static inline const void *
pw_ctree_ptr(const void *seq, Py_ssize_t i)
{
    return ((const struct pw_cseq *)seq)->elements[i];
}

static inline int
pw_ctree_int(const void *seq, Py_ssize_t i)
{
    return (
        (const int *)(const void *)((const struct pw_cseq *)seq)->elements)[i];
}

/* A parsed module and the arena that owns it. */
struct pw_ctree {
    const void *mod; /* mod_ty, a Module */
    void *arena;     /* PyArena */
};

/* Parse SRC (UTF-8, NUL-terminated) as a file called FILENAME, exactly as
 * compile() and ast.parse() do; -1 with the Python error set (the
 * SyntaxError of compile()). */
int pw_ctree_parse(const char *src, PyObject *filename, struct pw_ctree *t);
/* Compile the parsed tree as builtin compile() compiles its `ast` form
 * (new reference, or NULL with the compiler's error set). */
PyObject *pw_ctree_compile(const struct pw_ctree *t, PyObject *filename);
void pw_ctree_free(struct pw_ctree *t);
