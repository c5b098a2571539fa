/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * grade_tool.c - grade_code: the suite checked against the server's
 * limits, the program judged (src/grade/), the report as structured
 * content and a text a model reads at once.
 *
 * The tests are entries of the server's run queue, one group per call:
 * they take turns with other clients' runs, and the reply is sent from
 * the last one's callback.  A suite is bounded by the server's maximum
 * timeout per test and the suite's own cap, PW_GRADE_TESTS_MAX tests.
 */
#include "config.h"

#include <string.h>

#include "core/util.h"
#include "grade/grade.h"
#include "grade/suite.h"
#include "server/grade_tool.h"

/* Fill the limits the suite leaves open with the server's defaults and
 * refuse what goes beyond its maximums. */
static int
within_limits(const struct pw_conf *cfg, struct pw_grade_suite *s,
              struct pw_error *err)
{
    if (s->n > PW_GRADE_TESTS_MAX) {
        return pw_fail(err, PW_ERR_USAGE, "'tests': at most %d tests",
                       PW_GRADE_TESTS_MAX);
    }
    for (size_t i = 0; i < s->n; i++) {
        struct pw_grade_test *t = &s->tests[i];
        t->timeout = t->timeout > 0 ? t->timeout : cfg->timeout_s;
        t->memory = t->memory > 0 ? t->memory : cfg->memory;
        if (t->timeout > cfg->max_timeout_s || t->memory > cfg->max_memory) {
            return pw_fail(err, PW_ERR_USAGE,
                           "'tests': tests[%zu] (\"%s\"): the server allows "
                           "a timeout of at most %g s and at most %lld bytes "
                           "of memory",
                           i, t->name, cfg->max_timeout_s, cfg->max_memory);
        }
    }
    return 0;
}

/* The text content: the verdict, then one line per test that failed. */
static char *
summary_text(const json_t *report)
{
    struct pw_buf b;
    pw_buf_init(&b);
    pw_buf_printf(
        &b, "Verdict %s: %lld of %lld tests passed, %g of %g points",
        json_string_value(json_object_get(report, "verdict")),
        (long long)json_integer_value(json_object_get(report, "passed")),
        (long long)json_integer_value(json_object_get(report, "total")),
        json_number_value(json_object_get(report, "points")),
        json_number_value(json_object_get(report, "max_points")));
    size_t i;
    json_t *v; /* borrowed */
    json_array_foreach(json_object_get(report, "compile_errors"), i, v) {
        pw_buf_printf(&b, "\ncompile error: %s", json_string_value(v));
    }
    json_array_foreach(json_object_get(report, "tests"), i, v) {
        const char *verdict = json_string_value(json_object_get(v, "verdict"));
        const char *why = json_string_value(json_object_get(v, "diff"));
        why = why != NULL ? why
                          : json_string_value(json_object_get(v, "message"));
        if (strcmp(verdict, "AC") != 0 && strcmp(verdict, "CE") != 0) {
            pw_buf_printf(&b, "\n%s: %s%s%s",
                          json_string_value(json_object_get(v, "name")),
                          verdict, why != NULL ? ": " : "",
                          why != NULL ? why : "");
        }
    }
    return pw_buf_take(&b, NULL);
}

/* New reference: the CallToolResult of REPORT (stolen), or NULL. */
static json_t *
report_result(json_t *report)
{
    if (report == NULL) {
        return NULL;
    }
    PW_AUTOFREE char *text = summary_text(report);
    /* A verdict other than AC is still a grade: not a failed call. */
    return json_pack("{s:[{s:s,s:s}],s:o,s:b}", "content", "type", "text",
                     "text", text, "structuredContent", report, "isError", 0);
}

struct pw_grade_call {
    struct pw_grade_suite s;
    struct pw_grade_opts o;
    struct pw_importset set;
    struct pw_zygote *z; /* borrowed */
    const char *code;    /* borrowed */
    size_t len;
    struct pw_grading *gr;
    char *checker_blob; /* owned or NULL: the checker program compiled */
    pw_grade_call_done_fn done;
    void *ctx;
};

struct pw_grade_call *
pw_grade_call_new(const struct pw_grade_ctx *c, const char *code, size_t len,
                  const struct pw_importset *set, const json_t *tests,
                  json_t **result, struct pw_error *err)
{
    *result = NULL;
    if (c->zygote == NULL || c->rules == NULL) {
        pw_fail(err, PW_ERR_INTERNAL, "grading is unavailable: %s",
                c->unavailable);
        return NULL;
    }
    struct pw_grade_call *gc = pw_xcalloc(1, sizeof(*gc));
    if (pw_grade_suite_parse(tests, NULL, &gc->s, err) < 0) {
        char msg[sizeof(err->message)];
        snprintf(msg, sizeof(msg), "%s", err->message);
        pw_fail(err, PW_ERR_USAGE, "'tests': %s", msg);
        free(gc);
        return NULL;
    }
    gc->set = *set;
    gc->z = c->zygote;
    gc->code = code;
    gc->len = len;
    gc->o = (struct pw_grade_opts){.rules = c->rules,
                                   .imports = &gc->set,
                                   .caps = c->caps,
                                   .jobs = 0,
                                   .max_output = c->cfg->max_output,
                                   .checked = c->checked,
                                   .blob = c->blob,
                                   .blob_len = c->blob_len,
                                   .blob_tried = c->blob_tried};
    json_t *report = NULL;
    if (within_limits(c->cfg, &gc->s, err) < 0 ||
        pw_grade_check(&gc->o, &gc->s, code, len, &report, err) < 0) {
        pw_grade_call_free(gc);
        return NULL;
    }
    gc->o.checked = NULL; /* the caller's, used by the check alone */
    if (report != NULL) {
        pw_grade_call_free(gc);
        *result = report_result(report);
        if (*result == NULL) {
            pw_fail(err, PW_ERR_INTERNAL, "building the report");
        }
        return NULL;
    }
    return gc;
}

static void
graded(void *ctx, json_t *report)
{
    struct pw_grade_call *gc = ctx;
    gc->done(gc->ctx, report_result(report)); /* last: it may free GC */
}

const char *
pw_grade_call_checker(const struct pw_grade_call *gc, size_t *len)
{
    size_t n = 0;
    for (size_t i = 0; i < gc->s.n; i++) {
        n += gc->s.tests[i].checker == PW_CHECK_PROGRAM;
    }
    *len = n > 1 && gc->s.checker_code != NULL ? gc->s.checker_len : 0;
    return n > 1 ? gc->s.checker_code : NULL;
}

void
pw_grade_call_take_checker_blob(struct pw_grade_call *gc, char *blob,
                                size_t blob_len)
{
    free(gc->checker_blob);
    gc->checker_blob = blob;
    gc->o.checker_blob = blob;
    gc->o.checker_blob_len = blob != NULL ? blob_len : 0;
    gc->o.checker_tried = true;
}

void
pw_grade_call_submit(struct pw_grade_call *gc, struct pw_queue_group *g,
                     pw_grade_call_done_fn done, void *ctx)
{
    gc->done = done;
    gc->ctx = ctx;
    gc->gr = pw_grade_start(g, gc->z, &gc->o, &gc->s, gc->code, gc->len,
                            graded, gc);
}

double
pw_grade_call_timeout(const struct pw_grade_call *gc)
{
    /* A test's timeout is CPU time; its wall clock may run to
     * PW_SBX_WALL_MULTIPLE times it. */
    double total = 0;
    for (size_t i = 0; i < gc->s.n; i++) {
        total += gc->s.tests[i].timeout * PW_SBX_WALL_MULTIPLE;
    }
    return total;
}

void
pw_grade_call_free(struct pw_grade_call *gc)
{
    if (gc != NULL) {
        pw_grade_free(gc->gr);
        free(gc->checker_blob);
        pw_grade_suite_free(&gc->s);
        free(gc);
    }
}
