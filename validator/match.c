/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * match.c - compile and evaluate matchers (see match.h).
 *
 * Defines pw_match_path_* and pw_match_cond_*.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "validator/match.h"
#include "core/util.h"

#define FAIL(...) ((void)snprintf(msg, msglen, __VA_ARGS__), -1)

/* ---- paths -------------------------------------------------------- */

static bool
field_ok(const struct pw_nodes *nt, const int *kinds, int nkinds, bool first,
         const char *name)
{
    if (!first || nkinds == 0) {
        return pw_nodes_any_field(nt, name);
    }
    for (int i = 0; i < nkinds; i++) {
        if (pw_nodes_field(nt, kinds[i], name) < 0) {
            return false;
        }
    }
    return true;
}

static int
add_segment(const struct pw_nodes *nt, const int *kinds, int nkinds,
            const char *s, struct pw_path *p, char *msg, size_t msglen)
{
    if (strcmp(s, "$parent") == 0) {
        if (p->nseg > 0) {
            return FAIL("'$parent' must lead the path '%s'", p->text);
        }
        p->nparent++;
        return 0;
    }
    if (p->nseg == PW_PATH_MAX) {
        return FAIL("path '%s' is too long", p->text);
    }
    char *end = NULL;
    long idx = strtol(s, &end, 10);
    if (*s != '\0' && *end == '\0') {
        if (p->nseg == 0) {
            return FAIL("path '%s' starts with an index", p->text);
        }
        p->seg[p->nseg] = -1;
        p->index[p->nseg++] = idx;
        return 0;
    }
    bool first = p->nseg == 0 && p->nparent == 0;
    if (!field_ok(nt, kinds, nkinds, first, s)) {
        return FAIL("unknown field '%s' in path '%s'", s, p->text);
    }
    p->seg[p->nseg++] = pw_nodes_name_id(nt, s);
    return 0;
}

int
pw_match_path_compile(const struct pw_nodes *nt, const int *kinds, int nkinds,
                      const char *text, struct pw_path *out, char *msg,
                      size_t msglen)
{
    memset(out, 0, sizeof(*out));
    out->text = pw_xstrdup(text);
    PW_AUTOFREE char *copy = pw_xstrdup(text);
    char *save = NULL;
    for (char *s = strtok_r(copy, ".", &save); s != NULL;
         s = strtok_r(NULL, ".", &save)) {
        if (add_segment(nt, kinds, nkinds, s, out, msg, msglen) < 0) {
            return -1;
        }
    }
    if (out->nseg == 0 && out->nparent == 0) {
        return FAIL("empty path");
    }
    return 0;
}

void
pw_match_path_free(struct pw_path *p)
{
    free(p->text);
    memset(p, 0, sizeof(*p));
}

typedef bool (*visit_fn)(const struct pw_val *v, const void *arg);

static const struct pw_val absent = {NULL, 0, -1, PW_V_ABSENT, 0, 0};

static bool path_any(const struct pw_nodes *nt, const struct pw_val *cur,
                     const struct pw_path *p, int i, visit_fn fn,
                     const void *arg);

/* The list CUR met at segment I: an index picks one element, anything
 * else is tried on each. */
static bool
list_any(const struct pw_nodes *nt, const struct pw_val *cur,
         const struct pw_path *p, int i, visit_fn fn, const void *arg)
{
    Py_ssize_t n = pw_val_len(cur);
    if (i < p->nseg && p->seg[i] < 0) {
        Py_ssize_t k = p->index[i] < 0 ? p->index[i] + n : p->index[i];
        if (k < 0 || k >= n) {
            return fn(&absent, arg);
        }
        struct pw_val e = pw_val_item(nt, cur, k);
        return path_any(nt, &e, p, i + 1, fn, arg);
    }
    if (n == 0) {
        return fn(&absent, arg);
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        struct pw_val e = pw_val_item(nt, cur, k);
        if (path_any(nt, &e, p, i, fn, arg)) {
            return true;
        }
    }
    return false;
}

static bool
path_any(const struct pw_nodes *nt, const struct pw_val *cur,
         const struct pw_path *p, int i, visit_fn fn, const void *arg)
{
    if (cur->t == PW_V_ABSENT || cur->t == PW_V_NONE) {
        return fn(cur, arg);
    }
    if (cur->t == PW_V_SEQ) {
        return list_any(nt, cur, p, i, fn, arg);
    }
    if (i == p->nseg) {
        return fn(cur, arg);
    }
    struct pw_val next = pw_node_get(nt, cur, p->seg[i]);
    return path_any(nt, &next, p, i + 1, fn, arg);
}

static const struct pw_val *
path_start(const struct pw_mctx *mc, const struct pw_path *p)
{
    int d = mc->depth - p->nparent;
    return d >= 0 ? &mc->anc[d] : &absent;
}

static bool
take_first(const struct pw_val *v, const void *arg)
{
    *(struct pw_val *)arg = *v;
    return v->t != PW_V_ABSENT && v->t != PW_V_NONE;
}

struct pw_val
pw_match_path_first(const struct pw_mctx *mc, const struct pw_path *p)
{
    struct pw_val v = absent;
    if (!path_any(mc->nt, path_start(mc, p), p, 0, take_first, &v)) {
        return absent;
    }
    return v;
}

/* ---- predicates --------------------------------------------------- */

static bool
cmp(PyObject *a, PyObject *b, int op)
{
    if (a == NULL) {
        return false; /* a node or a list equals no scalar */
    }
    if (a == b && op == Py_EQ) {
        return true;
    }
    if (PyBool_Check(a) != PyBool_Check(b)) {
        return false;
    }
    int r = PyObject_RichCompareBool(a, b, op);
    if (r < 0) {
        PyErr_Clear();
    }
    return r == 1;
}

static bool
contains(PyObject *set, PyObject *v)
{
    if (v == NULL) {
        return false;
    }
    int r = PySet_Contains(set, v);
    if (r < 0) {
        PyErr_Clear();
    }
    return r == 1;
}

static bool
tailmatch(PyObject *v, PyObject *tup, int dir)
{
    if (v == NULL || !PyUnicode_Check(v)) {
        return false;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tup); i++) {
        if (PyUnicode_Tailmatch(v, PyTuple_GET_ITEM(tup, i), 0, PY_SSIZE_T_MAX,
                                dir) == 1) {
            return true;
        }
    }
    return false;
}

static bool
kind_in(const struct pw_val *v, const unsigned char *bits)
{
    int k = v->t == PW_V_NODE ? v->kind : -1;
    return k >= 0 && (bits[k / 8] & (1u << (k % 8))) != 0;
}

static bool
regex_ok(PyObject *v, const regex_t *re, struct pw_re_memo *memo)
{
    if (v == NULL || !PyUnicode_Check(v)) {
        return false;
    }
    size_t slot = ((size_t)v >> 4) % PW_RE_MEMO;
    if (memo != NULL && memo->key[slot] == v) {
        return memo->match[slot];
    }
    const char *s = PyUnicode_AsUTF8(v);
    if (s == NULL) {
        PyErr_Clear();
        return false;
    }
    bool match = regexec(re, s, 0, NULL, 0) == 0;
    if (memo != NULL) {
        Py_XSETREF(memo->key[slot], Py_NewRef(v));
        memo->match[slot] = match;
    }
    return match;
}

/* The tests on a value present in the tree (V its Python object, NULL
 * for a node). */
static bool
pred_tests(const struct pw_pred *pr, const struct pw_val *val, PyObject *v)
{
    unsigned t = pr->tests;
    return (!(t & PW_T_EQ) || cmp(v, pr->eq, Py_EQ)) &&
           (!(t & PW_T_NE) || !cmp(v, pr->ne, Py_EQ)) &&
           (!(t & PW_T_IN) || contains(pr->in, v)) &&
           (!(t & PW_T_NOT_IN) || !contains(pr->not_in, v)) &&
           (!(t & PW_T_PREFIX) || tailmatch(v, pr->prefix, -1)) &&
           (!(t & PW_T_SUFFIX) || tailmatch(v, pr->suffix, 1)) &&
           (!(t & PW_T_REGEX) || regex_ok(v, &pr->re, pr->memo)) &&
           (!(t & PW_T_TYPE) || kind_in(val, pr->types)) &&
           (!(t & PW_T_LT) ||
            (v != NULL && PyLong_Check(v) && cmp(v, pr->lt, Py_LT))) &&
           (!(t & PW_T_GT) ||
            (v != NULL && PyLong_Check(v) && cmp(v, pr->gt, Py_GT)));
}

static bool
pred_test(const struct pw_val *val, const void *arg)
{
    const struct pw_pred *pr = arg;
    unsigned t = pr->tests;
    bool present = val->t != PW_V_ABSENT && val->t != PW_V_NONE;
    if ((t & PW_T_EXISTS) && present != pr->exists) {
        return false;
    }
    if ((t & ~(unsigned)PW_T_EXISTS) == 0) {
        return true;
    }
    if (val->t == PW_V_ABSENT) {
        return false;
    }
    PyObject *owned = NULL;
    PyObject *v = pw_val_object(val, &owned); /* borrowed, or OWNED */
    bool r = pred_tests(pr, val, v);
    Py_XDECREF(owned);
    return r;
}

bool
pw_match_cond_eval(const struct pw_mctx *mc, const struct pw_cond *c)
{
    switch (c->kind) {
    case PW_C_ALL:
        for (int i = 0; i < c->nkids; i++) {
            if (!pw_match_cond_eval(mc, &c->kids[i])) {
                return false;
            }
        }
        return true;
    case PW_C_ANY:
        for (int i = 0; i < c->nkids; i++) {
            if (pw_match_cond_eval(mc, &c->kids[i])) {
                return true;
            }
        }
        return false;
    case PW_C_NOT:
        return !pw_match_cond_eval(mc, &c->kids[0]);
    case PW_C_PATH:
        return path_any(mc->nt, path_start(mc, &c->path), &c->path, 0,
                        pred_test, &c->pred);
    }
    return false;
}

/* ---- compiling ---------------------------------------------------- */

static PyObject *
json_to_py(json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_STRING: {
        PyObject *s = PyUnicode_FromStringAndSize(
            json_string_value(j), (Py_ssize_t)json_string_length(j));
        if (s != NULL) {
            PyUnicode_InternInPlace(&s);
        }
        return s;
    }
    case JSON_INTEGER:
        return PyLong_FromLongLong(json_integer_value(j));
    case JSON_REAL:
        return PyFloat_FromDouble(json_real_value(j));
    case JSON_TRUE:
        return Py_NewRef(Py_True);
    case JSON_FALSE:
        return Py_NewRef(Py_False);
    case JSON_NULL:
        return Py_NewRef(Py_None);
    default:
        PyErr_SetString(PyExc_TypeError, "expected a scalar");
        return NULL;
    }
}

/* A tuple of str from a string or an array of strings. */
static PyObject *
str_tuple(json_t *j)
{
    PW_PYAUTO PyObject *lst = PyList_New(0);
    if (lst == NULL) {
        return NULL;
    }
    size_t n = json_is_array(j) ? json_array_size(j) : 1;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_is_array(j) ? json_array_get(j, i) : j; /* borrowed */
        if (!json_is_string(e)) {
            PyErr_SetString(PyExc_TypeError, "expected strings");
            return NULL;
        }
        PW_PYAUTO PyObject *s = json_to_py(e);
        if (s == NULL || PyList_Append(lst, s) < 0) {
            return NULL;
        }
    }
    return PyList_AsTuple(lst);
}

static PyObject *
scalar_set(json_t *j)
{
    if (!json_is_array(j)) {
        PyErr_SetString(PyExc_TypeError, "expected an array");
        return NULL;
    }
    PW_PYAUTO PyObject *set = PyFrozenSet_New(NULL);
    if (set == NULL) {
        return NULL;
    }
    size_t i;
    json_t *e; /* borrowed */
    json_array_foreach(j, i, e) {
        PW_PYAUTO PyObject *v = json_to_py(e);
        if (v == NULL || PySet_Add(set, v) < 0) {
            return NULL;
        }
    }
    return pw_steal(&set);
}

static int
type_bits(const struct pw_nodes *nt, json_t *j, struct pw_pred *pr, char *msg,
          size_t msglen)
{
    pr->types = pw_xcalloc((size_t)nt->n / 8 + 1, 1);
    size_t n = json_is_array(j) ? json_array_size(j) : 1;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_is_array(j) ? json_array_get(j, i) : j; /* borrowed */
        const char *name = json_string_value(e);
        int k = name != NULL ? pw_nodes_find(nt, name) : -1;
        if (k < 0) {
            return FAIL("unknown node type '%s'", name ? name : "?");
        }
        pr->types[k / 8] |= (unsigned char)(1u << (k % 8));
    }
    return 0;
}

static int
pred_key(const struct pw_nodes *nt, const char *key, json_t *v,
         struct pw_pred *pr, char *msg, size_t msglen)
{
    static const struct {
        const char *name;
        unsigned test;
        size_t off;
    } scalars[] = {
        {"eq", PW_T_EQ, offsetof(struct pw_pred, eq)},
        {"ne", PW_T_NE, offsetof(struct pw_pred, ne)},
        {"lt", PW_T_LT, offsetof(struct pw_pred, lt)},
        {"gt", PW_T_GT, offsetof(struct pw_pred, gt)},
    };
    PyObject **slot = NULL;
    for (size_t i = 0; i < PW_N_ELEMENTS(scalars); i++) {
        if (strcmp(key, scalars[i].name) == 0) {
            pr->tests |= scalars[i].test;
            slot = (PyObject **)((char *)pr + scalars[i].off);
            *slot = json_to_py(v);
        }
    }
    if (slot != NULL) {
        /* handled above */
    } else if (strcmp(key, "in") == 0 || strcmp(key, "not_in") == 0) {
        bool in = key[0] == 'i';
        pr->tests |= in ? PW_T_IN : PW_T_NOT_IN;
        slot = in ? &pr->in : &pr->not_in;
        *slot = scalar_set(v);
    } else if (strcmp(key, "prefix") == 0 || strcmp(key, "suffix") == 0) {
        bool pre = key[0] == 'p';
        pr->tests |= pre ? PW_T_PREFIX : PW_T_SUFFIX;
        slot = pre ? &pr->prefix : &pr->suffix;
        *slot = str_tuple(v);
    } else if (strcmp(key, "regex") == 0) {
        if (!json_is_string(v) || regcomp(&pr->re, json_string_value(v),
                                          REG_EXTENDED | REG_NOSUB) != 0) {
            return FAIL("bad regular expression");
        }
        pr->tests |= PW_T_REGEX;
        pr->memo = pw_xcalloc(1, sizeof(*pr->memo));
        return 0;
    } else if (strcmp(key, "exists") == 0) {
        if (!json_is_boolean(v)) {
            return FAIL("'exists' takes true or false");
        }
        pr->tests |= PW_T_EXISTS;
        pr->exists = json_is_true(v);
        return 0;
    } else if (strcmp(key, "type") == 0) {
        pr->tests |= PW_T_TYPE;
        return type_bits(nt, v, pr, msg, msglen);
    } else {
        return FAIL("unknown key '%s'", key);
    }
    if (*slot == NULL) {
        PyErr_Clear();
        return FAIL("bad value for '%s'", key);
    }
    return 0;
}

static void
pred_free(struct pw_pred *pr)
{
    Py_CLEAR(pr->eq);
    Py_CLEAR(pr->ne);
    Py_CLEAR(pr->lt);
    Py_CLEAR(pr->gt);
    Py_CLEAR(pr->in);
    Py_CLEAR(pr->not_in);
    Py_CLEAR(pr->prefix);
    Py_CLEAR(pr->suffix);
    if (pr->tests & PW_T_REGEX) {
        regfree(&pr->re);
    }
    for (size_t i = 0; pr->memo != NULL && i < PW_RE_MEMO; i++) {
        Py_CLEAR(pr->memo->key[i]);
    }
    free(pr->memo);
    free(pr->types);
    memset(pr, 0, sizeof(*pr));
}

static int
path_cond(const struct pw_nodes *nt, const int *kinds, int nkinds,
          const char *key, json_t *v, struct pw_cond *c, char *msg,
          size_t msglen)
{
    c->kind = PW_C_PATH;
    if (pw_match_path_compile(nt, kinds, nkinds, key, &c->path, msg, msglen) <
        0) {
        return -1;
    }
    if (!json_is_object(v)) {
        return FAIL("the test for '%s' must be an object", key);
    }
    const char *k;
    json_t *e; /* borrowed */
    json_object_foreach(v, k, e) {
        size_t used = (size_t)snprintf(msg, msglen, "%s: ", key);
        if (pred_key(nt, k, e, &c->pred, msg + used,
                     msglen > used ? msglen - used : 0) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
cond_list(const struct pw_nodes *nt, const int *kinds, int nkinds, json_t *arr,
          struct pw_cond *c, char *msg, size_t msglen)
{
    if (!json_is_array(arr)) {
        return FAIL("'any_of' and 'all_of' take an array of objects");
    }
    c->nkids = (int)json_array_size(arr);
    c->kids = pw_xcalloc((size_t)c->nkids + 1, sizeof(*c->kids));
    for (int i = 0; i < c->nkids; i++) {
        if (pw_match_cond_compile(nt, kinds, nkinds,
                                  json_array_get(arr, (size_t)i), &c->kids[i],
                                  msg, msglen) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
cond_entry(const struct pw_nodes *nt, const int *kinds, int nkinds,
           const char *key, json_t *v, struct pw_cond *c, char *msg,
           size_t msglen)
{
    if (strcmp(key, "any_of") == 0 || strcmp(key, "all_of") == 0) {
        c->kind = key[1] == 'n' ? PW_C_ANY : PW_C_ALL;
        return cond_list(nt, kinds, nkinds, v, c, msg, msglen);
    }
    if (strcmp(key, "not") == 0) {
        c->kind = PW_C_NOT;
        c->nkids = 1;
        c->kids = pw_xcalloc(1, sizeof(*c->kids));
        return pw_match_cond_compile(nt, kinds, nkinds, v, c->kids, msg,
                                     msglen);
    }
    return path_cond(nt, kinds, nkinds, key, v, c, msg, msglen);
}

int
pw_match_cond_compile(const struct pw_nodes *nt, const int *kinds, int nkinds,
                      json_t *j, struct pw_cond *out, char *msg, size_t msglen)
{
    memset(out, 0, sizeof(*out));
    out->kind = PW_C_ALL;
    if (!json_is_object(j)) {
        return FAIL("a condition must be an object");
    }
    out->nkids = (int)json_object_size(j);
    out->kids = pw_xcalloc((size_t)out->nkids + 1, sizeof(*out->kids));
    const char *key;
    json_t *v; /* borrowed */
    int i = 0;
    json_object_foreach(j, key, v) {
        if (cond_entry(nt, kinds, nkinds, key, v, &out->kids[i++], msg,
                       msglen) < 0) {
            return -1;
        }
    }
    return 0;
}

void
pw_match_cond_free(struct pw_cond *c)
{
    for (int i = 0; i < c->nkids; i++) {
        pw_match_cond_free(&c->kids[i]);
    }
    free(c->kids);
    pw_match_path_free(&c->path);
    pred_free(&c->pred);
    memset(c, 0, sizeof(*c));
}

bool
pw_match_path_any(const struct pw_mctx *mc, const struct pw_path *p,
                  bool (*fn)(const struct pw_val *v, const void *arg),
                  const void *arg)
{
    return path_any(mc->nt, path_start(mc, p), p, 0, fn, arg);
}
