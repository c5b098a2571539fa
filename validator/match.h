/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * match.h - compiled matchers: field paths, predicates and conditions.
 *
 * A path is "$parent"* followed by field names and list indexes
 * ("func.id", "args.1.value", "$parent.name").  A path that crosses a list
 * without an index means "any element".  A predicate is a set of tests
 * ANDed together; a condition combines path predicates with all/any/not.
 */
#pragma once

#include <jansson.h>
#include <regex.h>
#include <stdbool.h>

#include "validator/nodes.h"

#define PW_PATH_MAX 8

struct pw_path {
    int nparent;          /* leading "$parent" segments */
    int nseg;             /* segments after them */
    int seg[PW_PATH_MAX]; /* field name id (nodes.h), or -1: an index */
    Py_ssize_t index[PW_PATH_MAX];
    char *text; /* as written (owned) */
};

enum pw_pred_test {
    PW_T_EQ = 1u << 0,
    PW_T_NE = 1u << 1,
    PW_T_IN = 1u << 2,
    PW_T_NOT_IN = 1u << 3,
    PW_T_PREFIX = 1u << 4,
    PW_T_SUFFIX = 1u << 5,
    PW_T_REGEX = 1u << 6,
    PW_T_EXISTS = 1u << 7,
    PW_T_TYPE = 1u << 8,
    PW_T_LT = 1u << 9,
    PW_T_GT = 1u << 10,
};

struct pw_pred {
    unsigned tests;
    PyObject *eq, *ne, *lt, *gt; /* owned */
    PyObject *in, *not_in;       /* owned frozensets */
    PyObject *prefix, *suffix;   /* owned str or tuple of str */
    regex_t re;
    struct pw_re_memo *memo; /* recent verdicts of RE (owned) */
    bool exists;
    unsigned char *types; /* bitmap over node kinds (owned) */
};

/* The verdicts of a regex on the strings it saw last, by identity: the
 * same identifier comes back node after node.  Each entry holds a
 * reference to its string, so an address is never reused under it. */
#define PW_RE_MEMO 64
struct pw_re_memo {
    PyObject *key[PW_RE_MEMO];
    bool match[PW_RE_MEMO];
};

enum pw_cond_kind { PW_C_ALL, PW_C_ANY, PW_C_NOT, PW_C_PATH };

struct pw_cond {
    enum pw_cond_kind kind;
    struct pw_cond *kids; /* owned */
    int nkids;
    struct pw_path path;
    struct pw_pred pred;
};

/* What a condition is evaluated against: the node and its ancestors. */
struct pw_mctx {
    const struct pw_nodes *nt;
    const struct pw_val *anc; /* anc[0] root .. anc[depth] the node */
    int depth;
};

/* Compile the `where` object J for node kinds KINDS (paths are checked
 * against them).  On error fills MSG (for the loader to prefix). */
int pw_match_cond_compile(const struct pw_nodes *nt, const int *kinds,
                          int nkinds, json_t *j, struct pw_cond *out,
                          char *msg, size_t msglen);
void pw_match_cond_free(struct pw_cond *c);
bool pw_match_cond_eval(const struct pw_mctx *mc, const struct pw_cond *c);

int pw_match_path_compile(const struct pw_nodes *nt, const int *kinds,
                          int nkinds, const char *text, struct pw_path *out,
                          char *msg, size_t msglen);
void pw_match_path_free(struct pw_path *p);
/* First value the path reaches other than None, or an ABSENT one. */
struct pw_val pw_match_path_first(const struct pw_mctx *mc,
                                  const struct pw_path *p);
/* True if FN returns true for some value the path reaches (lists are
 * walked; FN sees an ABSENT value when the path reaches nothing). */
bool pw_match_path_any(const struct pw_mctx *mc, const struct pw_path *p,
                       bool (*fn)(const struct pw_val *v, const void *arg),
                       const void *arg);
