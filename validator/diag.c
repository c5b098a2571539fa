/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * diag.c - the list of findings: add, sort, JSON.
 */
#include "config.h"

#include <string.h>

#include "validator/diag.h"
#include "core/py.h"
#include "core/util.h"

void
pw_diags_init(struct pw_diags *d)
{
    memset(d, 0, sizeof(*d));
}

void
pw_diags_free(struct pw_diags *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].rule);
        free(d->v[i].message);
        free(d->v[i].module);
        free(d->v[i].student);
    }
    free(d->v);
    pw_diags_init(d);
}

void
pw_diags_add(struct pw_diags *d, const char *code, const char *rule,
             char *message, int line, int col, int end_line, int end_col)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 8;
        d->v = pw_xrealloc(d->v, cap * sizeof(*d->v));
        d->cap = cap;
    }
    struct pw_diag *g = &d->v[d->n];
    memset(g, 0, sizeof(*g));
    (void)snprintf(g->code, sizeof(g->code), "%s", code);
    g->rule = pw_xstrdup(rule);
    g->message = message;
    g->line = line;
    g->col = col;
    g->end_line = end_line >= line ? end_line : line;
    g->end_col = end_col;
    d->n++;
}

void
pw_diags_copy(struct pw_diags *to, const struct pw_diags *from)
{
    for (size_t i = 0; i < from->n; i++) {
        const struct pw_diag *g = &from->v[i];
        pw_diags_add(to, g->code, g->rule, pw_xstrdup(g->message), g->line,
                     g->col, g->end_line, g->end_col);
        struct pw_diag *c = &to->v[to->n - 1];
        c->module = g->module != NULL ? pw_xstrdup(g->module) : NULL;
        c->student = g->student != NULL ? pw_xstrdup(g->student) : NULL;
    }
}

void
pw_diags_remove(struct pw_diags *d, size_t i)
{
    free(d->v[i].rule);
    free(d->v[i].message);
    free(d->v[i].module);
    free(d->v[i].student);
    memmove(&d->v[i], &d->v[i + 1], (d->n - i - 1) * sizeof(*d->v));
    d->n--;
}

int
pw_diag_cmp(const struct pw_diag *a, const struct pw_diag *b)
{
    if (a->line != b->line) {
        return a->line < b->line ? -1 : 1;
    }
    if (a->col != b->col) {
        return a->col < b->col ? -1 : 1;
    }
    return strcmp(a->code, b->code);
}

static int
cmp_diag(const void *a, const void *b)
{
    return pw_diag_cmp(a, b);
}

void
pw_diags_sort(struct pw_diags *d)
{
    if (d->n > 1) {
        qsort(d->v, d->n, sizeof(*d->v), cmp_diag);
    }
}

json_t *
pw_diag_to_json(const struct pw_diag *g)
{
    return json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:s}", "code", g->code,
                     "rule", g->rule, "line", g->line, "column", g->col,
                     "end_line", g->end_line, "end_column", g->end_col,
                     "message", g->message);
}

json_t *
pw_diags_to_json(const struct pw_diags *d)
{
    json_auto_t *arr = json_array();
    for (size_t i = 0; i < d->n; i++) {
        if (json_array_append_new(arr, pw_diag_to_json(&d->v[i])) < 0) {
            return NULL;
        }
    }
    return pw_steal(&arr);
}

/* The findings of the events the interpreter raises itself (rules/
 * meta.json binds them by their "event" key). */
static bool
interpreter_reports(const struct pw_diag *g)
{
    static const char *const rules[] = {"syntax-error", "compile-error"};
    for (size_t i = 0; i < PW_N_ELEMENTS(rules); i++) {
        if (strcmp(g->rule, rules[i]) == 0) {
            return true;
        }
    }
    return g->module != NULL && !pw_py_module_known(g->module);
}

bool
pw_diags_interpreter_only(const struct pw_diags *d)
{
    for (size_t i = 0; i < d->n; i++) {
        if (!interpreter_reports(&d->v[i])) {
            return false;
        }
    }
    return d->n > 0;
}

const char *
pw_diag_student(const struct pw_diag *d)
{
    return d->student != NULL
               ? d->student
               : "this course's sandbox does not allow this code";
}
