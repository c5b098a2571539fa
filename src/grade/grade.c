/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * grade.c - judge a program on a suite: one validation (CE), every test
 * a sandboxed run (several at a time, results in test order), the
 * sandbox's status turned into a verdict, the output compared by the
 * test's checker, and the summary.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "grade/batch.h"
#include "grade/compare.h"
#include "grade/grade.h"

/* Output kept per test in the report (the run's own cap is larger). */
#define SHOWN_MAX 4096

static json_t *
shown(const json_t *result, const char *field)
{
    const char *s = json_string_value(json_object_get(result, field));
    if (s == NULL) {
        return json_string("");
    }
    size_t n = strlen(s);
    return json_stringn(s, pw_utf8_cut(s, n, SHOWN_MAX));
}

/* CE: the problems the rules find, as "LINE:COL: CODE message"; NULL if
 * none (or no validation).  -1 with ERR if validation could not run. */
static int
compile_errors(const struct pw_grade_opts *o, const char *code, size_t len,
               json_t **out, struct pw_error *err)
{
    *out = NULL;
    if (o->rules == NULL) {
        return 0;
    }
    struct pw_diags d;
    pw_diags_init(&d);
    int rc = pw_validate(o->rules, o->imports, code, len, &d, NULL, err);
    if (rc == 0 && d.n > 0) {
        pw_diags_sort(&d);
        *out = json_array();
        for (size_t i = 0; i < d.n; i++) {
            PW_AUTOFREE char *line =
                pw_xasprintf("%d:%d: %s %s", d.v[i].line, d.v[i].col,
                             d.v[i].code, d.v[i].message);
            json_array_append_new(*out, json_string(line));
        }
    }
    pw_diags_free(&d);
    return rc;
}

static struct pw_sbx_request
request_for(const struct pw_grade_opts *o, const struct pw_grade_test *t,
            const char *code, size_t len)
{
    return (struct pw_sbx_request){
        .code = code,
        .code_len = len,
        .stdin_data = t->stdin_data,
        .stdin_len = t->stdin_len,
        .limits = {.timeout_s = t->timeout,
                   .memory_bytes = t->memory,
                   .max_output_bytes = o->max_output},
        .imports = o->imports,
        .caps = o->caps,
        .capture_output = true};
}

static const char *
error_field(const json_t *result, const char *field)
{
    const char *s = json_string_value(
        json_object_get(json_object_get(result, "error"), field));
    return s != NULL ? s : "";
}

static bool
syntax_error(const json_t *result)
{
    const char *type = error_field(result, "type");
    return strcmp(type, "SyntaxError") == 0 ||
           strcmp(type, "IndentationError") == 0 ||
           strcmp(type, "TabError") == 0;
}

/* The verdict the sandbox's status gives; NULL for a run that ended
 * normally (its output decides). */
static const char *
status_verdict(const json_t *result)
{
    static const struct {
        const char *status, *verdict;
    } map[] = {
        {"timeout", "TLE"}, {"memory_limit", "MLE"},  {"output_limit", "OLE"},
        {"killed", "RE"},   {"internal_error", "IE"},
    };
    const char *st = json_string_value(json_object_get(result, "status"));
    if (st == NULL) {
        return "IE";
    }
    if (strcmp(st, "ok") == 0) {
        return json_is_true(json_object_get(result, "stdout_truncated"))
                   ? "OLE"
                   : NULL;
    }
    if (strcmp(st, "error") == 0) {
        return syntax_error(result) ? "CE" : "RE";
    }
    for (size_t i = 0; i < PW_N_ELEMENTS(map); i++) {
        if (strcmp(st, map[i].status) == 0) {
            return map[i].verdict;
        }
    }
    return "IE";
}

/* The line a person reads first about a run that failed. */
static json_t *
failure_message(const json_t *result)
{
    const char *type = error_field(result, "type");
    const char *msg = error_field(result, "message");
    if (*type == '\0' && *msg == '\0') {
        return json_null();
    }
    PW_AUTOFREE char *s =
        strcmp(type, "SandboxError") == 0 || *type == '\0'
            ? pw_xstrdup(msg)
            : pw_xasprintf("%s%s%s", type, *msg ? ": " : "", msg);
    return json_stringn(s, pw_utf8_cut(s, strlen(s), SHOWN_MAX));
}

/* A new reference to RESULT's FIELD, or null. */
static json_t *
field(const json_t *result, const char *name)
{
    json_t *v = json_object_get(result, name);
    return v != NULL ? json_incref(v) : json_null();
}

static json_t *
test_entry(const struct pw_grade_test *t, const json_t *result,
           const char *verdict, const char *diff)
{
    bool judged = strcmp(verdict, "AC") == 0 || strcmp(verdict, "WA") == 0;
    return json_pack(
        "{s:s,s:s,s:o,s:o,s:o,s:f,s:f,s:o,s:o,s:o,s:o,s:o,s:n}", "name",
        t->name, "verdict", verdict, "time", field(result, "execution_time"),
        "cpu_time", field(result, "cpu_time"), "memory_kb",
        field(result, "max_rss_kb"), "points",
        strcmp(verdict, "AC") == 0 ? t->points : 0.0, "max_points", t->points,
        "stdout", shown(result, "stdout"), "stdout_truncated",
        json_boolean(
            json_is_true(json_object_get(result, "stdout_truncated"))),
        "stderr", shown(result, "stderr"), "diff",
        diff != NULL ? json_string(diff) : json_null(), "message",
        judged ? json_null() : failure_message(result), "feedback");
}

/* Verdict of test T from its run's RESULT, by a built-in checker. */
static json_t *
judge_builtin(const struct pw_grade_test *t, const json_t *result)
{
    const char *v = status_verdict(result);
    char diff[512] = "";
    if (v == NULL) {
        const json_t *out = json_object_get(result, "stdout");
        bool ok = pw_compare(t->checker, t->tolerance, t->expected,
                             t->expected_len, json_string_value(out),
                             json_string_length(out), diff, sizeof(diff));
        v = ok ? "AC" : "WA";
    }
    return test_entry(t, result, v, diff[0] != '\0' ? diff : NULL);
}

/* The checker program's stdin: {input, expected, output}. */
static char *
checker_input(const struct pw_grade_test *t, const json_t *result)
{
    json_t *in = json_pack(
        "{s:s%,s:o,s:O}", "input", t->stdin_data, t->stdin_len, "expected",
        t->expected != NULL ? json_stringn(t->expected, t->expected_len)
                            : json_null(),
        "output", json_object_get(result, "stdout"));
    char *text = json_dumps(in, JSON_COMPACT);
    json_decref(in);
    return text;
}

/* The checker's verdict: the first word of its output, AC or WA; the
 * rest of that line is the feedback (FB, LEN bytes). */
static const char *
checker_says(const char *out, char *fb, size_t len)
{
    snprintf(fb, len, "%s", out != NULL ? out : "");
    fb[strcspn(fb, "\n")] = '\0';
    fb[pw_utf8_cut(fb, strlen(fb), len - 4)] = '\0';
    const char *v = strncmp(fb, "AC", 2) == 0   ? "AC"
                    : strncmp(fb, "WA", 2) == 0 ? "WA"
                                                : NULL;
    if (v == NULL || (fb[2] != '\0' && fb[2] != ' ')) {
        return NULL;
    }
    size_t skip = fb[2] == ' ' ? 3 : 2;
    memmove(fb, fb + skip, strlen(fb + skip) + 1);
    return v;
}

/* Verdict of test T from the checker's run CHECK: it prints "AC" or
 * "WA", then optionally a line of feedback.  Anything else (another
 * first word, an exception, a limit) is the checker's failure, not the
 * program's: IE. */
static json_t *
judge_by_checker(const struct pw_grade_test *t, const json_t *result,
                 const json_t *check)
{
    const char *st = json_string_value(json_object_get(check, "status"));
    char fb[512];
    const char *v = checker_says(
        json_string_value(json_object_get(check, "stdout")), fb, sizeof(fb));
    st = st != NULL ? st : "no status";
    if (strcmp(st, "ok") == 0 && v != NULL) {
        json_t *e = test_entry(t, result, v, NULL);
        json_object_set_new(e, "feedback",
                            fb[0] != '\0' ? json_string(fb) : json_null());
        return e;
    }
    json_t *e = test_entry(t, result, "IE", NULL);
    json_t *why = failure_message(check);
    PW_AUTOFREE char *msg =
        pw_xasprintf("the checker program failed (%s%s%s)", st,
                     json_is_string(why) ? ": "
                     : v == NULL         ? ": its output does not "
                                           "start with AC or WA"
                                         : "",
                     json_is_string(why) ? json_string_value(why) : "");
    json_decref(why);
    json_object_set_new(e, "message", json_string(msg));
    return e;
}

/* Run the N requests of one program (REQS[0]'s), compiled once here for
 * all of them. */
static void
run_batch(struct pw_zygote *z, const struct pw_grade_opts *o,
          struct pw_sbx_request *reqs, size_t n, json_t **results)
{
    size_t blob_len = 0;
    char *blob = n > 1 ? pw_zygote_compile(z, reqs[0].code, reqs[0].code_len,
                                           o->caps, &blob_len)
                       : NULL;
    for (size_t i = 0; blob != NULL && i < n; i++) {
        reqs[i].compiled = blob;
        reqs[i].compiled_len = blob_len;
    }
    pw_batch_run(z, reqs, n, o->jobs, results);
    free(blob);
}

/* Run the checker program on every test that ran to its end. */
static void
run_checkers(struct pw_zygote *z, const struct pw_grade_opts *o,
             const struct pw_grade_suite *s, json_t **results, json_t **out)
{
    struct pw_sbx_request *reqs = pw_xcalloc(s->n, sizeof(*reqs));
    char **inputs = pw_xcalloc(s->n, sizeof(*inputs));
    size_t *which = pw_xcalloc(s->n, sizeof(*which));
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct pw_grade_test *t = &s->tests[i];
        if (t->checker != PW_CHECK_PROGRAM || status_verdict(results[i])) {
            continue;
        }
        struct pw_grade_test ct = {.stdin_data = checker_input(t, results[i])};
        ct.stdin_len = strlen(ct.stdin_data);
        inputs[m] = ct.stdin_data;
        reqs[m] = request_for(o, &ct, s->checker_code, s->checker_len);
        which[m++] = i;
    }
    json_t **checks = pw_xcalloc(m + 1, sizeof(json_t *));
    run_batch(z, o, reqs, m, checks);
    for (size_t k = 0; k < m; k++) {
        size_t i = which[k];
        out[i] = judge_by_checker(&s->tests[i], results[i], checks[k]);
        json_decref(checks[k]);
        free(inputs[k]);
    }
    free(checks);
    free(which);
    free(inputs);
    free(reqs);
}

static json_t *
summary(const struct pw_grade_suite *s, json_t *tests, json_t *ce)
{
    const char *verdict = "AC";
    size_t passed = 0;
    double points = 0, max_points = 0;
    size_t i;
    json_t *t; /* borrowed */
    json_array_foreach(tests, i, t) {
        const char *v = json_string_value(json_object_get(t, "verdict"));
        if (strcmp(v, "AC") == 0) {
            passed++;
        } else if (strcmp(verdict, "AC") == 0) {
            verdict = v;
        }
        points += json_number_value(json_object_get(t, "points"));
        max_points += json_number_value(json_object_get(t, "max_points"));
    }
    double fraction =
        max_points > 0 ? points / max_points : (double)passed / (double)s->n;
    json_t *r =
        json_pack("{s:s,s:I,s:I,s:f,s:f,s:f,s:o}", "verdict",
                  ce != NULL ? "CE" : verdict, "passed", (json_int_t)passed,
                  "total", (json_int_t)s->n, "fraction", fraction, "points",
                  points, "max_points", max_points, "tests", tests);
    if (ce != NULL) {
        json_object_set_new(r, "compile_errors", ce);
    }
    return r;
}

/* Every test CE, with no run: the program never starts. */
static json_t *
all_ce(const struct pw_grade_suite *s, json_t *ce)
{
    json_t *tests = json_array();
    for (size_t i = 0; i < s->n; i++) {
        json_array_append_new(
            tests,
            json_pack("{s:s,s:s,s:f,s:f,s:O}", "name", s->tests[i].name,
                      "verdict", "CE", "points", 0.0, "max_points",
                      s->tests[i].points, "message", json_array_get(ce, 0)));
    }
    return summary(s, tests, ce);
}

json_t *
pw_grade(struct pw_zygote *z, const struct pw_grade_opts *o,
         const struct pw_grade_suite *s, const char *code, size_t len,
         struct pw_error *err)
{
    json_t *ce = NULL;
    if (compile_errors(o, code, len, &ce, err) < 0) {
        return NULL;
    }
    if (ce != NULL) {
        return all_ce(s, ce);
    }
    struct pw_sbx_request *reqs = pw_xcalloc(s->n, sizeof(*reqs));
    json_t **results = pw_xcalloc(s->n, sizeof(json_t *));
    json_t **judged = pw_xcalloc(s->n, sizeof(json_t *));
    for (size_t i = 0; i < s->n; i++) {
        reqs[i] = request_for(o, &s->tests[i], code, len);
    }
    run_batch(z, o, reqs, s->n, results);
    if (s->checker_code != NULL) {
        run_checkers(z, o, s, results, judged);
    }
    json_t *tests = json_array();
    for (size_t i = 0; i < s->n; i++) {
        json_array_append_new(tests,
                              judged[i] != NULL
                                  ? judged[i]
                                  : judge_builtin(&s->tests[i], results[i]));
        json_decref(results[i]);
    }
    free(judged);
    free(results);
    free(reqs);
    return summary(s, tests, NULL);
}

static json_t *
row(json_t *a, json_t *b, json_t *c, json_t *d, json_t *e)
{
    json_t *r = json_array();
    json_t *v[] = {a, b, c, d, e};
    for (size_t i = 0; i < PW_N_ELEMENTS(v); i++) {
        json_array_append_new(r, v[i]);
    }
    return r;
}

json_t *
pw_grade_coderunner(const json_t *report, const struct pw_grade_suite *s)
{
    json_t *rows = json_array();
    json_array_append_new(rows,
                          row(json_string("iscorrect"), json_string("Test"),
                              json_string("Input"), json_string("Expected"),
                              json_string("Got")));
    size_t i;
    json_t *t; /* borrowed */
    json_array_foreach(json_object_get(report, "tests"), i, t) {
        const struct pw_grade_test *st = &s->tests[i];
        const char *v = json_string_value(json_object_get(t, "verdict"));
        const json_t *out = json_object_get(t, "stdout");
        const json_t *msg = json_object_get(t, "message");
        json_t *got = json_string_length(out) > 0 || !json_is_string(msg)
                          ? json_stringn(json_string_value(out) != NULL
                                             ? json_string_value(out)
                                             : "",
                                         json_string_length(out))
                          : json_incref((json_t *)msg);
        json_array_append_new(
            rows,
            row(json_boolean(strcmp(v, "AC") == 0), json_string(st->name),
                json_stringn(st->stdin_data, st->stdin_len),
                st->expected != NULL
                    ? json_stringn(st->expected, st->expected_len)
                    : json_string(""),
                got));
    }
    const char *verdict =
        json_string_value(json_object_get(report, "verdict"));
    PW_AUTOFREE char *prologue = pw_xasprintf(
        "<p>Verdict: %s (%lld of %lld tests passed)</p>", verdict,
        (long long)json_integer_value(json_object_get(report, "passed")),
        (long long)json_integer_value(json_object_get(report, "total")));
    return json_pack("{s:O,s:o,s:s}", "fraction",
                     json_object_get(report, "fraction"), "testresults", rows,
                     "prologuehtml", prologue);
}
