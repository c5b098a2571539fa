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
#include "sandbox/session/session.h"

/* Output kept per test in the report (the run's own cap is larger). */
#define SHOWN_MAX 4096

/* One test's run: its result, or why it did not start. */
struct outcome {
    bool started;
    bool batched;           /* run in a batch's process */
    struct pw_sbx_result r; /* when started */
    char why[512];          /* when not (struct pw_error's message) */
};

struct pw_grading;

/* A process running tests of the suite one after the other (batch
 * grading): one test in flight at a time. */
struct lane {
    struct pw_grading *gr;
    struct pw_sbx_session *sess; /* owned, or NULL: not started / over */
};

/* Lanes at most: a batch's tests are shared among this many processes
 * (at most the runs the caller allows at a time). */
#define LANES_MAX 8
/* Tests a lane is worth starting for. */
#define LANE_TESTS 4

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
    /* Batch grading: the lanes, the next test none has taken, and
     * whether the tests left go one process each (a lane's process ended
     * or could not vouch for a test). */
    struct lane lanes[LANES_MAX];
    size_t nlanes;
    size_t next;
    bool broken;
    double batch_cpu; /* each lane's RLIMIT_CPU */
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

/* CE: the problems the rules find, as "LINE:COL: CODE message" in *OUT
 * (the teacher's) and as "line LINE: plain words" in *PLAIN (what a
 * student reads: no rule code, tool or profile); NULL if none (or no
 * validation).  -1 with ERR if validation could not run. */
static int
compile_errors(const struct pw_grade_opts *o, const char *code, size_t len,
               json_t **out, json_t **plain, struct pw_error *err)
{
    *out = NULL;
    *plain = NULL;
    if (o->rules == NULL) {
        return 0;
    }
    struct pw_diags mine;
    pw_diags_init(&mine);
    struct pw_diags *d = o->checked != NULL ? o->checked : &mine;
    int rc = o->checked != NULL ? 0
                                : pw_validate(o->rules, o->imports, code, len,
                                              &mine, NULL, err);
    if (rc == 0 && d->n > 0) {
        pw_diags_sort(d);
        *out = json_array();
        *plain = json_array();
        for (size_t i = 0; i < d->n; i++) {
            PW_AUTOFREE char *line =
                pw_xasprintf("%d:%d: %s %s", d->v[i].line, d->v[i].col,
                             d->v[i].code, d->v[i].message);
            json_array_append_new(*out, json_string(line));
            PW_AUTOFREE char *words = pw_xasprintf("line %d: %s", d->v[i].line,
                                                   pw_diag_student(&d->v[i]));
            json_array_append_new(*plain, json_string(words));
        }
    }
    pw_diags_free(&mine);
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
        /* The test's timeout is CPU time; the wall clock gets
         * PW_SBX_WALL_MULTIPLE times it (limits.h). */
        .limits = {.cpu_limit_s = t->timeout,
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

/* The line of the program where its error was raised, or 0. */
static long
error_line(const struct outcome *o, const char *verdict)
{
    return o->started && strcmp(verdict, "RE") == 0 && o->r.error_line > 0
               ? o->r.error_line
               : 0;
}

/* What CodeRunner's Got column shows for a run that did not end on its
 * own (VERDICT), after its output: the error as python3 prints it (the
 * program's stderr, then its traceback naming the program "prog.py"),
 * or the limit it hit, in plain words. */
static void
got_error(struct pw_buf *b, const struct outcome *o, const char *verdict)
{
    if (strcmp(verdict, "TLE") == 0) {
        pw_buf_printf(b, "***Time limit exceeded***\n");
    } else if (strcmp(verdict, "MLE") == 0) {
        pw_buf_printf(b, "***Memory limit exceeded***\n");
    } else if (strcmp(verdict, "OLE") == 0) {
        pw_buf_printf(b, "***Output limit exceeded***\n");
    } else if (strcmp(verdict, "IE") == 0) {
        pw_buf_printf(b, "***The sandbox could not run this test***\n");
    } else if (strcmp(verdict, "RE") == 0 || strcmp(verdict, "CE") == 0) {
        pw_buf_printf(b, "***Error***\n");
        struct pw_buf err;
        pw_buf_init(&err);
        bool line_start = true;
        pw_buf_rename_lines(&err, o->r.err.data != NULL ? o->r.err.data : "",
                            o->r.err.len, "<user>", "prog.py", &line_start);
        if (o->r.traceback != NULL && *o->r.traceback != '\0') {
            pw_buf_replace_all(&err, o->r.traceback, "File \"<user>\"",
                               "File \"prog.py\"");
        } else if (o->r.error_type != NULL) {
            json_auto_t *m = failure_message(o);
            pw_buf_printf(&err, "%s\n",
                          json_is_string(m) ? json_string_value(m) : "");
        }
        pw_buf_append(b, err.data != NULL ? err.data : "", err.len);
        pw_buf_free(&err);
    }
}

/* CodeRunner's Got: the program's output, with its error (or the limit
 * it hit) appended. */
static json_t *
got_of(const struct outcome *o, const char *verdict)
{
    struct pw_buf b;
    pw_buf_init(&b);
    if (o->started) {
        size_t n = pw_utf8_cut(o->r.out.data, o->r.out.len, SHOWN_MAX);
        pw_buf_append(&b, o->r.out.data, n);
    }
    bool ended = strcmp(verdict, "AC") == 0 || strcmp(verdict, "WA") == 0;
    if (!ended) {
        if (b.len > 0 && b.data[b.len - 1] != '\n') {
            pw_buf_append(&b, "\n", 1);
        }
        if (o->started) {
            got_error(&b, o, verdict);
        } else {
            got_error(&b, o, "IE");
        }
    }
    json_t *got = json_stringn(
        b.data != NULL ? b.data : "",
        pw_utf8_cut(b.data != NULL ? b.data : "", b.len, 2 * SHOWN_MAX));
    pw_buf_free(&b);
    return got;
}

static json_t *
test_entry(const struct pw_grade_test *t, const struct outcome *o,
           const char *verdict, const char *diff)
{
    bool judged = strcmp(verdict, "AC") == 0 || strcmp(verdict, "WA") == 0;
    long line = error_line(o, verdict);
    return json_pack(
        "{s:s,s:s,s:o,s:o,s:o,s:f,s:f,s:o,s:o,s:o,s:o,s:o,s:o,s:n,s:o}",
        "name", t->name, "verdict", verdict, "time",
        o->started ? json_real(pw_round_us(o->r.wall_s)) : json_null(),
        "cpu_time",
        o->started ? json_real(pw_round_us(o->r.cpu_s)) : json_null(),
        "memory_kb", o->started ? json_integer(o->r.max_rss_kb) : json_null(),
        "points", strcmp(verdict, "AC") == 0 ? t->points : 0.0, "max_points",
        t->points, "stdout", shown(o, false), "stdout_truncated",
        json_boolean(o->started && o->r.out.truncated), "stderr",
        shown(o, true), "diff", diff != NULL ? json_string(diff) : json_null(),
        "message", judged ? json_null() : failure_message(o), "line",
        line > 0 ? json_integer(line) : json_null(), "feedback", "got",
        got_of(o, verdict));
}

/* The entry of test T, with how it ran. */
static json_t *
with_isolation(json_t *e, const struct outcome *o)
{
    if (o->started) {
        json_object_set_new(e, "isolation",
                            json_string(o->batched ? "batch" : "process"));
    }
    return e;
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
 * feedback (FB, LEN bytes) is everything after it: the rest of that
 * line and every line after it (the final newline dropped). */
static const char *
checker_says(const char *out, char *fb, size_t len)
{
    snprintf(fb, len, "%s", out != NULL ? out : "");
    fb[pw_utf8_cut(fb, strlen(fb), len - 4)] = '\0';
    const char *v = strncmp(fb, "AC", 2) == 0   ? "AC"
                    : strncmp(fb, "WA", 2) == 0 ? "WA"
                                                : NULL;
    if (v == NULL || (fb[2] != '\0' && fb[2] != ' ' && fb[2] != '\n')) {
        return NULL;
    }
    size_t skip = fb[2] == '\0' ? 2 : 3;
    memmove(fb, fb + skip, strlen(fb + skip) + 1);
    size_t n = strlen(fb);
    while (n > 0 && (fb[n - 1] == '\n' || fb[n - 1] == '\r')) {
        fb[--n] = '\0';
    }
    return v;
}

/* Verdict of test T from the checker's run CHECK: it prints "AC" or
 * "WA", then optionally its feedback (any number of lines).  Anything
 * else (another first word, an exception, a limit) is the checker's
 * failure, not the program's: IE. */
static json_t *
judge_by_checker(const struct pw_grade_test *t, const struct outcome *o,
                 const struct outcome *check)
{
    const char *st = check->started ? pw_sbx_status_name(check->r.status)
                                    : "internal_error";
    char fb[SHOWN_MAX];
    const char *v = checker_says(check->started ? check->r.out.data : NULL, fb,
                                 sizeof(fb));
    if (check->started && check->r.status == PW_SBX_OK && v != NULL) {
        json_t *e = test_entry(t, o, v, NULL);
        json_object_set_new(e, "feedback",
                            fb[0] != '\0' ? json_string(fb) : json_null());
        if (fb[0] != '\0') {
            /* Got: the output, then the checker's feedback. */
            PW_AUTOFREE char *got = pw_xasprintf(
                "%s%s%s\n", json_string_value(json_object_get(e, "got")),
                o->r.out.len > 0 && o->r.out.data[o->r.out.len - 1] != '\n'
                    ? "\n"
                    : "",
                fb);
            json_object_set_new(e, "got", json_string(got));
        }
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
summary(const struct pw_grade_suite *s, json_t *tests, json_t *ce,
        json_t *plain)
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
        json_object_set_new(r, "compile_errors_plain", plain);
    }
    return r;
}

/* Every test CE, with no run: the program never starts.  PLAIN: the
 * errors in a student's words, the first one each test's Got. */
static json_t *
all_ce(const struct pw_grade_suite *s, json_t *ce, json_t *plain)
{
    json_t *tests = json_array();
    for (size_t i = 0; i < s->n; i++) {
        PW_AUTOFREE char *got = pw_xasprintf(
            "***Error***\n%s\n", json_string_value(json_array_get(plain, 0)));
        json_array_append_new(
            tests, json_pack("{s:s,s:s,s:f,s:f,s:O,s:s}", "name",
                             s->tests[i].name, "verdict", "CE", "points", 0.0,
                             "max_points", s->tests[i].points, "message",
                             json_array_get(ce, 0), "got", got));
    }
    return summary(s, tests, ce, plain);
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
            tests, with_isolation(checked ? judge_by_checker(t, &gr->runs[i],
                                                             &gr->checks[i])
                                          : judge_builtin(t, &gr->runs[i]),
                                  &gr->runs[i]));
    }
    return summary(s, tests, NULL, NULL);
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
        /* A test's output files are not reported: their fds are closed
         * now, not held until the suite's end. */
        pw_blobs_clear(&o->r.blobs);
        json_decref(o->r.files);
        o->r.files = NULL;
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
    bool mine = code == gr->code;
    bool checker = !mine && code == gr->s->checker_code;
    const char *done = mine ? gr->o.blob : checker ? gr->o.checker_blob : NULL;
    size_t done_len = mine ? gr->o.blob_len : gr->o.checker_blob_len;
    bool tried = mine ? gr->o.blob_tried : checker && gr->o.checker_tried;
    if (n > 1 && done != NULL) {
        char *copy = pw_xmalloc(done_len + 1);
        memcpy(copy, done, done_len);
        *blob_len = done_len;
        return copy;
    }
    if (tried) {
        return NULL; /* no code: each run compiles it and reports why */
    }
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
    spec.req.compile_tried =
        code == gr->code ? gr->o.blob_tried
                         : code == gr->s->checker_code && gr->o.checker_tried;
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

/* One run of the phase is over. */
static void
phase_step(struct pw_grading *gr)
{
    if (--gr->pending > 0) {
        return;
    }
    if (!gr->checking && gr->s->checker_code != NULL && queue_checkers(gr)) {
        return;
    }
    /* Last: DONE may free the group and GR. */
    gr->done(gr->ctx, report_of(gr));
}

static void
run_done(void *ctx, size_t index, struct pw_sbx_result *res,
         const struct pw_error *err)
{
    struct pw_grading *gr = ctx;
    outcome_take(gr->checking ? &gr->checks[index] : &gr->runs[index], res,
                 err);
    phase_step(gr); /* last: it may free GR */
}

/* The tests no lane has taken, one process each. */
static void
queue_rest(struct pw_grading *gr)
{
    gr->broken = true;
    for (; gr->next < gr->s->n; gr->next++) {
        queue_run(gr, &gr->s->tests[gr->next], gr->code, gr->len, gr->blob,
                  gr->blob_len, gr->next);
    }
}

/* A lane's next test: its process when it has one, a new batch else. */
static struct pw_sbx_run *
lane_start(void *ctx, const struct pw_run_spec *spec, struct pw_error *err)
{
    struct lane *l = ctx;
    if (l->sess != NULL) {
        return pw_sbx_batch_test(l->sess, &spec->req, err);
    }
    struct pw_sbx_run *first = NULL;
    l->sess =
        pw_sbx_batch_new(l->gr->z, &spec->req, l->gr->batch_cpu, &first, err);
    return l->sess != NULL ? first : NULL;
}

static void lane_done(void *ctx, size_t index, struct pw_sbx_result *res,
                      const struct pw_error *err);

/* Give lane L the next test, or end its process. */
static void
lane_next(struct lane *l)
{
    struct pw_grading *gr = l->gr;
    if (gr->broken || gr->next >= gr->s->n ||
        (l->sess != NULL && pw_sbx_session_ended(l->sess) != NULL)) {
        pw_sbx_session_free(l->sess);
        l->sess = NULL;
        return;
    }
    size_t i = gr->next++;
    struct pw_run_spec spec = {
        .req = request_for(&gr->o, &gr->s->tests[i], gr->code, gr->len),
        .zygote = gr->z,
        .start = lane_start};
    spec.req.compiled = gr->blob;
    spec.req.compiled_len = gr->blob_len;
    spec.req.compile_tried = gr->o.blob_tried;
    pw_queue_add(gr->g, &spec, lane_done, l, i);
}

/* What a batch's test gives stands as a fresh process's would: the test
 * ran to its report and the process vouched for it, or it ran out of
 * its CPU time, wall clock or output (as it would have alone).  Any
 * other end (a crash, the memory limit, a signal, os._exit, a result
 * the process could not vouch for) runs the test again, alone. */
static bool
batch_stands(const struct pw_sbx_result *res, const struct pw_grade_test *t)
{
    if (res == NULL || res->rerun) {
        return false;
    }
    switch (res->status) {
    case PW_SBX_OK:
    case PW_SBX_ERROR:
        return res->reported;
    case PW_SBX_TIMEOUT:
        /* Its own limit (not the batch's RLIMIT_CPU). */
        return t->timeout <= 0 || res->cpu_s >= t->timeout ||
               res->wall_s >= t->timeout * PW_SBX_WALL_MULTIPLE;
    case PW_SBX_OUTPUT_LIMIT:
        return true;
    default:
        return false;
    }
}

static void
lane_done(void *ctx, size_t index, struct pw_sbx_result *res,
          const struct pw_error *err)
{
    struct lane *l = ctx;
    struct pw_grading *gr = l->gr;
    if (!batch_stands(res, &gr->s->tests[index])) {
        /* This test alone in a fresh process, and so the tests left. */
        pw_sbx_session_free(l->sess);
        l->sess = NULL;
        queue_run(gr, &gr->s->tests[index], gr->code, gr->len, gr->blob,
                  gr->blob_len, index);
        queue_rest(gr);
        return;
    }
    outcome_take(&gr->runs[index], res, err);
    gr->runs[index].batched = true;
    if (l->sess != NULL && pw_sbx_session_ended(l->sess) != NULL) {
        queue_rest(gr); /* its process is gone (a timeout) */
    }
    lane_next(l);
    phase_step(gr); /* last: it may free GR */
}

/* Batch grading applies: the suite asks for it, has tests enough, and
 * they share a memory limit (the batch's process has one). */
static bool
batch_fits(const struct pw_grade_suite *s)
{
    if (s->isolation != PW_ISOLATION_BATCH || s->n < 2) {
        return false;
    }
    for (size_t i = 1; i < s->n; i++) {
        if (s->tests[i].memory != s->tests[0].memory) {
            return false;
        }
    }
    return true;
}

/* Start the lanes: their CPU budget (every test's limit and a margin:
 * each test is stopped at its own limit by the server), one test each. */
static void
start_lanes(struct pw_grading *gr)
{
    const struct pw_grade_suite *s = gr->s;
    int jobs = gr->o.jobs > 0 ? gr->o.jobs : pw_queue_jobs_default();
    size_t n = (s->n + LANE_TESTS - 1) / LANE_TESTS;
    n = n < (size_t)jobs ? n : (size_t)jobs;
    gr->nlanes = n < LANES_MAX ? (n > 0 ? n : 1) : LANES_MAX;
    gr->batch_cpu = 2;
    for (size_t i = 0; i < s->n; i++) {
        gr->batch_cpu +=
            (s->tests[i].timeout > 0 ? s->tests[i].timeout : 30) + 0.05;
    }
    for (size_t i = 0; i < gr->nlanes; i++) {
        gr->lanes[i].gr = gr;
        lane_next(&gr->lanes[i]);
    }
}

int
pw_grade_check(const struct pw_grade_opts *o, const struct pw_grade_suite *s,
               const char *code, size_t len, json_t **report,
               struct pw_error *err)
{
    json_t *ce = NULL, *plain = NULL;
    *report = NULL;
    if (compile_errors(o, code, len, &ce, &plain, err) < 0) {
        return -1;
    }
    if (ce != NULL) {
        *report = all_ce(s, ce, plain);
    } else if (s->n == 0) {
        *report = summary(s, json_array(), NULL, NULL);
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
    if (batch_fits(s)) {
        start_lanes(gr);
        return gr;
    }
    gr->next = s->n;
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
    for (size_t i = 0; i < gr->nlanes; i++) {
        pw_sbx_session_free(gr->lanes[i].sess);
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
    if (o->watch != NULL) {
        pw_queue_group_watch(g, o->watch, o->watch_ctx);
    }
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
        const json_t *g = json_object_get(t, "got");
        json_t *got =
            json_is_string(g) ? json_incref((json_t *)g) : json_string("");
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
