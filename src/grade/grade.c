/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * grade.c - judge a program on a suite: one validation (CE), every test
 * a run in the run queue (queue.h: its tests are entries of the
 * caller's group, several at a time, results kept in test order), the
 * sandbox's status turned into a verdict, the output compared by the
 * test's checker (a checker program's runs are a second round of
 * entries), and the summary, handed to the caller's callback when the
 * last run is over.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/util.h"
#include "grade/compare.h"
#include "grade/grade.h"

/* Output kept per test in the report (the run's own cap is larger). */
#define SHOWN_MAX 4096

/* One test's run: its result, or why it did not start. */
struct outcome {
    bool started;
    struct pw_sbx_result r; /* when started */
    char why[512];          /* when not (struct pw_error's message) */
};

struct pw_grading {
    struct pw_queue_group *g; /* borrowed */
    struct pw_zygote *z;      /* borrowed */
    struct pw_grade_opts o;
    const struct pw_grade_suite *s; /* borrowed */
    const char *code;               /* borrowed */
    size_t len;
    char *blob; /* owned: the program compiled once for its runs */
    size_t blob_len;
    char *checker_blob; /* owned: the checker's */
    size_t checker_blob_len;
    struct outcome *runs;   /* owned, one per test */
    struct outcome *checks; /* owned, one per test (those checked) */
    char **inputs;          /* owned: the checker runs' stdin */
    size_t pending;         /* runs of the phase not yet over */
    bool checking;          /* the checker phase */
    pw_grade_done_fn done;
    void *ctx;
};

static json_t *
shown(const struct outcome *o, bool err)
{
    if (!o->started) {
        return json_string("");
    }
    const struct pw_sbx_text *t = err ? &o->r.err : &o->r.out;
    return json_stringn(t->data, pw_utf8_cut(t->data, t->len, SHOWN_MAX));
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
error_type(const struct outcome *o)
{
    return !o->started               ? "SandboxError"
           : o->r.error_type != NULL ? o->r.error_type
                                     : "";
}

static const char *
error_message(const struct outcome *o)
{
    return !o->started                  ? o->why
           : o->r.error_message != NULL ? o->r.error_message
                                        : "";
}

static bool
syntax_error(const struct outcome *o)
{
    const char *type = error_type(o);
    return strcmp(type, "SyntaxError") == 0 ||
           strcmp(type, "IndentationError") == 0 ||
           strcmp(type, "TabError") == 0;
}

/* The verdict the sandbox's status gives; NULL for a run that ended
 * normally (its output decides). */
static const char *
status_verdict(const struct outcome *o)
{
    if (!o->started) {
        return "IE";
    }
    switch (o->r.status) {
    case PW_SBX_OK:
        return o->r.out.truncated ? "OLE" : NULL;
    case PW_SBX_ERROR:
        return syntax_error(o) ? "CE" : "RE";
    case PW_SBX_TIMEOUT:
        return "TLE";
    case PW_SBX_MEMORY_LIMIT:
        return "MLE";
    case PW_SBX_OUTPUT_LIMIT:
        return "OLE";
    case PW_SBX_KILLED:
        return "RE";
    case PW_SBX_INTERNAL_ERROR:
        break;
    }
    return "IE";
}

/* The line a person reads first about a run that failed. */
static json_t *
failure_message(const struct outcome *o)
{
    const char *type = error_type(o);
    const char *msg = error_message(o);
    if (*type == '\0' && *msg == '\0') {
        return json_null();
    }
    PW_AUTOFREE char *s =
        strcmp(type, "SandboxError") == 0 || *type == '\0'
            ? pw_xstrdup(msg)
            : pw_xasprintf("%s%s%s", type, *msg ? ": " : "", msg);
    return json_stringn(s, pw_utf8_cut(s, strlen(s), SHOWN_MAX));
}

static json_t *
test_entry(const struct pw_grade_test *t, const struct outcome *o,
           const char *verdict, const char *diff)
{
    bool judged = strcmp(verdict, "AC") == 0 || strcmp(verdict, "WA") == 0;
    return json_pack(
        "{s:s,s:s,s:o,s:o,s:o,s:f,s:f,s:o,s:o,s:o,s:o,s:o,s:n}", "name",
        t->name, "verdict", verdict, "time",
        o->started ? json_real(pw_round_us(o->r.wall_s)) : json_null(),
        "cpu_time",
        o->started ? json_real(pw_round_us(o->r.cpu_s)) : json_null(),
        "memory_kb", o->started ? json_integer(o->r.max_rss_kb) : json_null(),
        "points", strcmp(verdict, "AC") == 0 ? t->points : 0.0, "max_points",
        t->points, "stdout", shown(o, false), "stdout_truncated",
        json_boolean(o->started && o->r.out.truncated), "stderr",
        shown(o, true), "diff", diff != NULL ? json_string(diff) : json_null(),
        "message", judged ? json_null() : failure_message(o), "feedback");
}

/* Verdict of test T from its run O, by a built-in checker. */
static json_t *
judge_builtin(const struct pw_grade_test *t, const struct outcome *o)
{
    const char *v = status_verdict(o);
    char diff[512] = "";
    if (v == NULL) {
        bool ok =
            pw_compare(t->checker, t->tolerance, t->expected, t->expected_len,
                       o->r.out.data, o->r.out.len, diff, sizeof(diff));
        v = ok ? "AC" : "WA";
    }
    return test_entry(t, o, v, diff[0] != '\0' ? diff : NULL);
}

/* The checker program's stdin: {input, expected, output}. */
static char *
checker_input(const struct pw_grade_test *t, const struct outcome *o)
{
    json_t *in = json_pack(
        "{s:s%,s:o,s:s%}", "input", t->stdin_data, t->stdin_len, "expected",
        t->expected != NULL ? json_stringn(t->expected, t->expected_len)
                            : json_null(),
        "output", o->r.out.data, o->r.out.len);
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
judge_by_checker(const struct pw_grade_test *t, const struct outcome *o,
                 const struct outcome *check)
{
    const char *st = check->started ? pw_sbx_status_name(check->r.status)
                                    : "internal_error";
    char fb[512];
    const char *v = checker_says(check->started ? check->r.out.data : NULL, fb,
                                 sizeof(fb));
    if (check->started && check->r.status == PW_SBX_OK && v != NULL) {
        json_t *e = test_entry(t, o, v, NULL);
        json_object_set_new(e, "feedback",
                            fb[0] != '\0' ? json_string(fb) : json_null());
        return e;
    }
    json_t *e = test_entry(t, o, "IE", NULL);
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

/* The report, once every run is over. */
static json_t *
report_of(const struct pw_grading *gr)
{
    const struct pw_grade_suite *s = gr->s;
    json_t *tests = json_array();
    for (size_t i = 0; i < s->n; i++) {
        const struct pw_grade_test *t = &s->tests[i];
        bool checked = gr->checks != NULL && t->checker == PW_CHECK_PROGRAM &&
                       status_verdict(&gr->runs[i]) == NULL;
        json_array_append_new(
            tests, checked ? judge_by_checker(t, &gr->runs[i], &gr->checks[i])
                           : judge_builtin(t, &gr->runs[i]));
    }
    return summary(s, tests, NULL);
}

/* Into O: the end of a run (RES, its pointers taken) or why it did not
 * start (ERR). */
static void
outcome_take(struct outcome *o, struct pw_sbx_result *res,
             const struct pw_error *err)
{
    o->started = res != NULL;
    if (res != NULL) {
        o->r = *res;
        memset(res, 0, sizeof(*res));
    } else {
        snprintf(o->why, sizeof(o->why), "%s", err->message);
    }
}

/* Compile CODE once for N runs of it (none for one: the run compiles
 * it). */
static char *
compile_for(const struct pw_grading *gr, const char *code, size_t len,
            size_t n, size_t *blob_len)
{
    *blob_len = 0;
    return n > 1 ? pw_zygote_compile(gr->z, code, len, gr->o.caps, blob_len)
                 : NULL;
}

static void run_done(void *ctx, size_t index, struct pw_sbx_result *res,
                     const struct pw_error *err);

/* Queue one run of CODE (BLOB, or NULL) for test T, as entry INDEX. */
static void
queue_run(struct pw_grading *gr, const struct pw_grade_test *t,
          const char *code, size_t len, const char *blob, size_t blob_len,
          size_t index)
{
    struct pw_run_spec spec = {.req = request_for(&gr->o, t, code, len),
                               .zygote = gr->z};
    spec.req.compiled = blob;
    spec.req.compiled_len = blob_len;
    pw_queue_add(gr->g, &spec, run_done, gr, index);
}

/* The checker program on every test that ran to its end; false if
 * none. */
static bool
queue_checkers(struct pw_grading *gr)
{
    const struct pw_grade_suite *s = gr->s;
    size_t m = 0;
    gr->checks = pw_xcalloc(s->n, sizeof(*gr->checks));
    gr->inputs = pw_xcalloc(s->n, sizeof(*gr->inputs));
    for (size_t i = 0; i < s->n; i++) {
        m += s->tests[i].checker == PW_CHECK_PROGRAM &&
             status_verdict(&gr->runs[i]) == NULL;
    }
    gr->checker_blob = compile_for(gr, s->checker_code, s->checker_len, m,
                                   &gr->checker_blob_len);
    gr->checking = true;
    gr->pending = m;
    for (size_t i = 0; i < s->n; i++) {
        const struct pw_grade_test *t = &s->tests[i];
        if (t->checker != PW_CHECK_PROGRAM ||
            status_verdict(&gr->runs[i]) != NULL) {
            continue;
        }
        struct pw_grade_test ct = {.stdin_data =
                                       checker_input(t, &gr->runs[i])};
        ct.stdin_len = strlen(ct.stdin_data);
        gr->inputs[i] = ct.stdin_data;
        queue_run(gr, &ct, s->checker_code, s->checker_len, gr->checker_blob,
                  gr->checker_blob_len, i);
    }
    return m > 0;
}

static void
run_done(void *ctx, size_t index, struct pw_sbx_result *res,
         const struct pw_error *err)
{
    struct pw_grading *gr = ctx;
    outcome_take(gr->checking ? &gr->checks[index] : &gr->runs[index], res,
                 err);
    if (--gr->pending > 0) {
        return;
    }
    if (!gr->checking && gr->s->checker_code != NULL && queue_checkers(gr)) {
        return;
    }
    /* Last: DONE may free the group and GR. */
    gr->done(gr->ctx, report_of(gr));
}

int
pw_grade_check(const struct pw_grade_opts *o, const struct pw_grade_suite *s,
               const char *code, size_t len, json_t **report,
               struct pw_error *err)
{
    json_t *ce = NULL;
    *report = NULL;
    if (compile_errors(o, code, len, &ce, err) < 0) {
        return -1;
    }
    if (ce != NULL) {
        *report = all_ce(s, ce);
    } else if (s->n == 0) {
        *report = summary(s, json_array(), NULL);
    }
    return 0;
}

struct pw_grading *
pw_grade_start(struct pw_queue_group *g, struct pw_zygote *z,
               const struct pw_grade_opts *o, const struct pw_grade_suite *s,
               const char *code, size_t len, pw_grade_done_fn done, void *ctx)
{
    struct pw_grading *gr = pw_xcalloc(1, sizeof(*gr));
    *gr = (struct pw_grading){.g = g,
                              .z = z,
                              .o = *o,
                              .s = s,
                              .code = code,
                              .len = len,
                              .runs = pw_xcalloc(s->n + 1, sizeof(*gr->runs)),
                              .pending = s->n,
                              .done = done,
                              .ctx = ctx};
    gr->blob = compile_for(gr, code, len, s->n, &gr->blob_len);
    for (size_t i = 0; i < s->n; i++) {
        queue_run(gr, &s->tests[i], code, len, gr->blob, gr->blob_len, i);
    }
    return gr;
}

void
pw_grade_free(struct pw_grading *gr)
{
    if (gr == NULL) {
        return;
    }
    for (size_t i = 0; i < gr->s->n; i++) {
        pw_sbx_result_clear(&gr->runs[i].r);
        if (gr->checks != NULL) {
            pw_sbx_result_clear(&gr->checks[i].r);
            free(gr->inputs[i]);
        }
    }
    free(gr->runs);
    free(gr->checks);
    free(gr->inputs);
    free(gr->blob);
    free(gr->checker_blob);
    free(gr);
}

struct sync_grade {
    json_t *report;
    bool done;
};

static void
sync_done(void *ctx, json_t *report)
{
    struct sync_grade *sg = ctx;
    sg->report = report;
    sg->done = true;
}

json_t *
pw_grade(struct pw_zygote *z, const struct pw_grade_opts *o,
         const struct pw_grade_suite *s, const char *code, size_t len,
         struct pw_error *err)
{
    struct sync_grade sg = {0};
    if (pw_grade_check(o, s, code, len, &sg.report, err) < 0 ||
        sg.report != NULL) {
        return sg.report;
    }
    struct pw_queue *q =
        pw_queue_new(o->jobs > 0 ? o->jobs : pw_queue_jobs_default());
    struct pw_queue_group *g = pw_queue_group_new(q, 0);
    struct pw_grading *gr =
        pw_grade_start(g, z, o, s, code, len, sync_done, &sg);
    while (!sg.done) {
        pw_queue_turn(q, z, NULL);
    }
    pw_queue_group_free(g);
    pw_queue_free(q);
    pw_grade_free(gr);
    return sg.report;
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
