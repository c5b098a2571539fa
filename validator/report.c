/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * report.c - output formats of `pyward check`.
 *
 * Defines pw_report_* and pw_format_parse.
 */
#include "config.h"

#include <string.h>

#include "validator/diag.h"
#include "validator/report.h"
#include "core/util.h"

void
pw_report_init(struct pw_report *r)
{
    memset(r, 0, sizeof(*r));
}

void
pw_report_free(struct pw_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].d.rule);
        free(r->v[i].d.message);
        free(r->v[i].d.module);
    }
    for (size_t i = 0; i < r->npaths; i++) {
        free(r->paths[i]);
    }
    free(r->v);
    free(r->paths);
    pw_report_init(r);
}

void
pw_report_take(struct pw_report *r, const char *path, struct pw_diags *d)
{
    r->paths = pw_xrealloc(r->paths, sizeof(*r->paths) * (r->npaths + 1));
    r->paths[r->npaths] = pw_xstrdup(path);
    for (size_t i = 0; i < d->n; i++) {
        if (r->n == r->cap) {
            r->cap = r->cap ? r->cap * 2 : 64;
            r->v = pw_xrealloc(r->v, sizeof(*r->v) * r->cap);
        }
        r->v[r->n].file = r->npaths;
        r->v[r->n++].d = d->v[i];
    }
    r->npaths++;
    free(d->v);
    pw_diags_init(d);
}

static const struct pw_report *sort_report;

static int
cmp_finding(const void *a, const void *b)
{
    const struct pw_finding *x = a, *y = b;
    int c = strcmp(sort_report->paths[x->file], sort_report->paths[y->file]);
    return c != 0 ? c : pw_diag_cmp(&x->d, &y->d);
}

void
pw_report_sort(struct pw_report *r)
{
    sort_report = r;
    if (r->n > 1) {
        qsort(r->v, r->n, sizeof(*r->v), cmp_finding);
    }
}

int
pw_format_parse(const char *name)
{
    static const char *const names[] = {"text", "json", "sarif", "github"};
    for (size_t i = 0; i < PW_N_ELEMENTS(names); i++) {
        if (strcmp(name, names[i]) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* GitHub workflow commands escape %, CR and LF (and , : in properties). */
static void
gh_escape(FILE *out, const char *s, bool property)
{
    for (; *s != '\0'; s++) {
        if (*s == '%') {
            (void)fputs("%25", out);
        } else if (*s == '\r') {
            (void)fputs("%0D", out);
        } else if (*s == '\n') {
            (void)fputs("%0A", out);
        } else if (property && *s == ':') {
            (void)fputs("%3A", out);
        } else if (property && *s == ',') {
            (void)fputs("%2C", out);
        } else {
            (void)fputc(*s, out);
        }
    }
}

static void
print_line(FILE *out, const char *path, const struct pw_diag *d,
           enum pw_format fmt)
{
    if (fmt == PW_FMT_TEXT) {
        (void)fprintf(out, "%s:%d:%d: %s %s\n", path, d->line, d->col, d->code,
                      d->message);
        return;
    }
    (void)fputs("::error file=", out);
    gh_escape(out, path, true);
    (void)fprintf(out,
                  ",line=%d,col=%d,endLine=%d,endColumn=%d,title=", d->line,
                  d->col, d->end_line, d->end_col);
    gh_escape(out, d->code, true);
    (void)fputs("::", out);
    gh_escape(out, d->code, false);
    (void)fputc(' ', out);
    gh_escape(out, d->message, false);
    (void)fputc('\n', out);
}

static json_t *
json_findings(const struct pw_report *r)
{
    json_auto_t *arr = json_array();
    for (size_t i = 0; i < r->n; i++) {
        json_t *o = pw_diag_to_json(&r->v[i].d);
        if (o == NULL ||
            json_object_set_new(o, "filename",
                                json_string(r->paths[r->v[i].file])) < 0 ||
            json_array_append_new(arr, o) < 0) {
            return NULL;
        }
    }
    return pw_steal(&arr);
}

static json_t *
sarif_rules(const struct pw_ruleset *rs)
{
    json_auto_t *arr = json_array();
    for (size_t i = 0; i < pw_ruleset_count(rs); i++) {
        struct pw_rule_info ri;
        pw_ruleset_info(rs, i, &ri);
        if (json_array_append_new(
                arr, json_pack("{s:s, s:s, s:{s:s}, s:{s:s}}", "id", ri.code,
                               "name", ri.name, "shortDescription", "text",
                               ri.summary, "fullDescription", "text",
                               ri.why)) < 0) {
            return NULL;
        }
    }
    return pw_steal(&arr);
}

static json_t *
sarif_result(const struct pw_report *r, const struct pw_finding *f)
{
    return json_pack(
        "{s:s, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:{s:i, s:i, s:i, s:i}}}]}",
        "ruleId", f->d.code, "level", "error", "message", "text", f->d.message,
        "locations", "physicalLocation", "artifactLocation", "uri",
        r->paths[f->file], "region", "startLine", f->d.line, "startColumn",
        f->d.col, "endLine", f->d.end_line, "endColumn", f->d.end_col);
}

static json_t *
sarif_log(const struct pw_report *r, const struct pw_ruleset *rs)
{
    json_auto_t *results = json_array();
    for (size_t i = 0; i < r->n; i++) {
        if (json_array_append_new(results, sarif_result(r, &r->v[i])) < 0) {
            return NULL;
        }
    }
    json_t *rules = sarif_rules(rs);
    if (rules == NULL) {
        return NULL;
    }
    return json_pack(
        "{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:O}]}", "version",
        "2.1.0", "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
        "runs", "tool", "driver", "name", "pyward", "version", PACKAGE_VERSION,
        "informationUri", "https://github.com/pyward/pyward", "rules", rules,
        "results", results);
}

int
pw_report_print(FILE *out, const struct pw_report *r, enum pw_format fmt,
                const struct pw_ruleset *rs)
{
    if (fmt == PW_FMT_TEXT || fmt == PW_FMT_GITHUB) {
        for (size_t i = 0; i < r->n; i++) {
            print_line(out, r->paths[r->v[i].file], &r->v[i].d, fmt);
        }
        return 0;
    }
    json_auto_t *j = fmt == PW_FMT_JSON ? json_findings(r) : sarif_log(r, rs);
    if (j == NULL || json_dumpf(j, out, JSON_INDENT(2)) < 0) {
        return -1;
    }
    (void)fputc('\n', out);
    return 0;
}

void
pw_report_statistics(FILE *out, const struct pw_report *r)
{
    /* Findings are sorted by path first; count per code in code order. */
    const char *done = "";
    for (;;) {
        const char *next = NULL;
        const struct pw_diag *first = NULL;
        size_t count = 0;
        for (size_t i = 0; i < r->n; i++) {
            const char *c = r->v[i].d.code;
            if (strcmp(c, done) > 0 && (next == NULL || strcmp(c, next) < 0)) {
                next = c;
                first = &r->v[i].d;
                count = 0;
            }
            count += next != NULL && strcmp(c, next) == 0;
        }
        if (next == NULL) {
            return;
        }
        (void)fprintf(out, "%-6zu %s %s\n", count, next, first->rule);
        done = next;
    }
}
