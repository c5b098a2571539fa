/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * grade_tool.c - grade_code: the suite checked against the server's
 * limits, the program judged (src/grade/), the report as structured
 * content and a text a model reads at once.
 *
 * The tests run here, several at a time, before the call returns: other
 * requests wait for them, so a suite is bounded by the server's maximum
 * timeout per test and PW_GRADE_TOOL_TESTS_MAX tests.
 */
#include "config.h"

#include <string.h>

#include "core/util.h"
#include "grade/queue.h"
#include "grade/grade.h"
#include "grade/suite.h"
#include "server/grade_tool.h"

/* Fill the limits the suite leaves open with the server's defaults and
 * refuse what goes beyond its maximums. */
static int
within_limits(const struct pw_conf *cfg, struct pw_grade_suite *s,
              struct pw_error *err)
{
    if (s->n > PW_GRADE_TOOL_TESTS_MAX) {
        return pw_fail(err, PW_ERR_USAGE, "'tests': at most %d tests",
                       PW_GRADE_TOOL_TESTS_MAX);
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

int
pw_grade_tool(const struct pw_grade_ctx *c, const char *code, size_t len,
              const struct pw_importset *set, const json_t *tests,
              json_t **result, struct pw_error *err)
{
    if (c->zygote == NULL || c->rules == NULL) {
        return pw_fail(err, PW_ERR_INTERNAL, "grading is unavailable: %s",
                       c->unavailable);
    }
    struct pw_grade_suite s;
    if (pw_grade_suite_parse(tests, NULL, &s, err) < 0) {
        char msg[sizeof(err->message)];
        snprintf(msg, sizeof(msg), "%s", err->message);
        return pw_fail(err, PW_ERR_USAGE, "'tests': %s", msg);
    }
    int rc = within_limits(c->cfg, &s, err);
    json_t *report = NULL;
    if (rc == 0) {
        struct pw_grade_opts o = {.rules = c->rules,
                                  .imports = set,
                                  .caps = c->caps,
                                  .jobs = pw_queue_jobs_default(),
                                  .max_output = c->cfg->max_output};
        report = pw_grade(c->zygote, &o, &s, code, len, err);
        rc = report != NULL ? 0 : -1;
    }
    if (report != NULL) {
        PW_AUTOFREE char *text = summary_text(report);
        /* A verdict other than AC is still a grade: not a failed call. */
        *result =
            json_pack("{s:[{s:s,s:s}],s:o,s:b}", "content", "type", "text",
                      "text", text, "structuredContent", report, "isError", 0);
    }
    pw_grade_suite_free(&s);
    return rc;
}
