/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * report.c - output formats of `pyward check`.
 *
 * Defines pw_report_* and pw_format_parse.
 */
#include "config.h"

#include <ctype.h>
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
        free(r->v[i].d.student);
        free(r->v[i].source);
    }
    for (size_t i = 0; i < r->npaths; i++) {
        free(r->paths[i]);
    }
    free(r->v);
    free(r->paths);
    pw_report_init(r);
}

/* A copy of the 1-based line LINE of SRC (NULL past its end). */
static char *
line_of(const char *src, size_t len, int line)
{
    size_t i = 0;
    for (int l = 1; l < line && i < len; i++) {
        l += src[i] == '\n';
    }
    if (i >= len && !(i == 0 && line == 1)) {
        return NULL;
    }
    const char *nl = memchr(src + i, '\n', len - i);
    size_t end = nl != NULL ? (size_t)(nl - src) : len;
    if (end > i && src[end - 1] == '\r') {
        end--;
    }
    return pw_xstrndup(src + i, end - i);
}

void
pw_report_take(struct pw_report *r, const char *path, struct pw_diags *d,
               const char *src, size_t len)
{
    r->paths = pw_xrealloc(r->paths, sizeof(*r->paths) * (r->npaths + 1));
    r->paths[r->npaths] = pw_xstrdup(path);
    for (size_t i = 0; i < d->n; i++) {
        if (r->n == r->cap) {
            r->cap = r->cap ? r->cap * 2 : 64;
            r->v = pw_xrealloc(r->v, sizeof(*r->v) * r->cap);
        }
        r->v[r->n].file = r->npaths;
        r->v[r->n].source =
            src != NULL ? line_of(src, len, d->v[i].line) : NULL;
        r->v[r->n++].d = d->v[i];
    }
    r->npaths++;
    free(d->v);
    pw_diags_init(d);
}

/* The next ": " or "; " of S outside quotes and brackets, NULL if none.
 * A single quote opens a quote after a blank or a bracket only (an
 * apostrophe does not), and closes one before a character that is not a
 * letter or a digit. */
static const char *
next_sep(const char *s)
{
    int depth = 0;
    bool quoted = false;
    const char *start = s;
    for (; *s != '\0'; s++) {
        if (*s == '\'' && !quoted &&
            (s == start || !isalnum((unsigned char)s[-1]))) {
            const char *q = s + 1;
            while (*q != '\0' &&
                   !(*q == '\'' && !isalnum((unsigned char)q[1]))) {
                q++;
            }
            if (*q != '\0') {
                s = q;
                continue;
            }
        }
        if (*s == '"') {
            quoted = !quoted;
        } else if (!quoted && (*s == '(' || *s == '[')) {
            depth++;
        } else if (!quoted && (*s == ')' || *s == ']') && depth > 0) {
            depth--;
        } else if (!quoted && depth == 0 && (*s == ':' || *s == ';') &&
                   s[1] == ' ' &&
                   !(s - start >= 8 && strncmp(s - 8, "f-string", 8) == 0)) {
            /* (CPython's "f-string: ..." is one message) */
            return s;
        }
    }
    return NULL;
}

/* Whether the N bytes of HEAD name something: a quote or a bracket, or
 * five words at least. */
static bool
names_something(const char *head, size_t n)
{
    size_t words = 1;
    for (size_t i = 0; i < n; i++) {
        if (strchr("'\"([", head[i]) != NULL) {
            return true;
        }
        words += head[i] == ' ';
    }
    return words >= 5;
}

size_t
pw_message_head(const char *msg, const char **hint)
{
    const char *sep = next_sep(msg);
    if (sep != NULL && !names_something(msg, (size_t)(sep - msg))) {
        sep = next_sep(sep + 2);
    }
    if (sep == NULL) {
        *hint = "";
        return strlen(msg);
    }
    *hint = sep + 2;
    return (size_t)(sep - msg);
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
    static const struct {
        const char *name;
        enum pw_format fmt;
    } names[] = {
        {"text", PW_FMT_TEXT},   {"concise", PW_FMT_TEXT},
        {"full", PW_FMT_FULL},   {"json", PW_FMT_JSON},
        {"sarif", PW_FMT_SARIF}, {"github", PW_FMT_GITHUB},
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(names); i++) {
        if (strcmp(name, names[i].name) == 0) {
            return (int)names[i].fmt;
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

/* The source line of F with carets under its columns. */
static void
print_source(FILE *out, const struct pw_finding *f)
{
    const char *line = f->source;
    size_t n = strlen(line);
    int w = snprintf(NULL, 0, "%d", f->d.line);
    (void)fprintf(out, "  %d | %s\n  %*s | ", f->d.line, line, w, "");
    size_t start = f->d.col > 1 ? (size_t)f->d.col - 1 : 0;
    size_t end = f->d.end_line == f->d.line && f->d.end_col > f->d.col
                     ? (size_t)f->d.end_col - 1
                     : n;
    start = start < n ? start : n;
    end = end < n ? end : n;
    /* Tabs stay tabs and a character (not a byte) takes one column. */
    for (size_t i = 0; i < start; i++) {
        if (line[i] == '\t') {
            (void)fputc('\t', out);
        } else if (((unsigned char)line[i] & 0xC0) != 0x80) {
            (void)fputc(' ', out);
        }
    }
    size_t carets = 0;
    for (size_t i = start; i < end; i++) {
        carets += ((unsigned char)line[i] & 0xC0) != 0x80;
    }
    for (size_t i = 0; i < (carets > 0 ? carets : 1); i++) {
        (void)fputc('^', out);
    }
    (void)fputc('\n', out);
}

static void
print_text(FILE *out, const char *path, const struct pw_finding *f,
           const struct pw_report_show *show)
{
    const struct pw_diag *d = &f->d;
    const char *hint = "";
    size_t head = pw_message_head(d->message, &hint);
    (void)fprintf(out, "%s:%d:%d: %s %.*s\n", path, d->line, d->col, d->code,
                  (int)head, d->message);
    if (show->source && f->source != NULL) {
        print_source(out, f);
    }
    if (show->hint && hint[0] != '\0') {
        (void)fprintf(out, "  = hint: %s\n", hint);
    }
}

static void
print_github(FILE *out, const char *path, const struct pw_diag *d)
{
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
        const struct pw_diag *d = &r->v[i].d;
        const char *hint = "";
        size_t head = pw_message_head(d->message, &hint);
        json_t *o = pw_diag_to_json(d);
        if (o == NULL ||
            json_object_set_new(o, "concise", json_stringn(d->message, head)) <
                0 ||
            json_object_set_new(o, "hint", json_string(hint)) < 0 ||
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
                const struct pw_ruleset *rs, const struct pw_report_show *show)
{
    if (fmt == PW_FMT_TEXT || fmt == PW_FMT_FULL) {
        struct pw_report_show s = *show;
        s.source = s.source || fmt == PW_FMT_FULL;
        s.hint = s.hint || fmt == PW_FMT_FULL;
        for (size_t i = 0; i < r->n; i++) {
            print_text(out, r->paths[r->v[i].file], &r->v[i], &s);
        }
        return ferror(out) ? -1 : 0;
    }
    if (fmt == PW_FMT_GITHUB) {
        for (size_t i = 0; i < r->n; i++) {
            print_github(out, r->paths[r->v[i].file], &r->v[i].d);
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
