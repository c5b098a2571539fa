/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * grade.h - judge a program on a suite of tests: validate it once, run
 * each test in the sandbox (several at a time), compare, and give a
 * verdict per test and overall.
 *
 * Verdicts: AC accepted, WA wrong answer, TLE time limit, MLE memory
 * limit, OLE output limit, RE runtime error, CE compile error (a syntax
 * error, or code the rules reject), IE the sandbox failed.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/profiles.h"
#include "grade/queue.h"
#include "grade/suite.h"
#include "sandbox/sandbox.h"
#include "validator/validator.h"

struct pw_grade_opts {
    const struct pw_ruleset *rules;     /* borrowed; NULL: no validation */
    const struct pw_importset *imports; /* borrowed */
    unsigned caps;                      /* the profiles' capabilities */
    int jobs;                           /* runs at a time; 0: the CPUs */
    long long max_output;               /* per stream; 0: the default */
    pw_queue_watch_fn watch; /* or NULL: told of each run's end (pw_grade) */
    void *watch_ctx;
    /* Borrowed or NULL: the program's findings, found before (by a
     * validator process: validator/vproc.h) under IMPORTS; the check
     * then takes them instead of validating again. */
    struct pw_diags *checked;
    /* Borrowed or NULL: the program compiled for its runs, done before
     * (by the validator process), BLOB_LEN bytes; copied by
     * pw_grade_start instead of compiling it there. */
    const char *blob;
    size_t blob_len;
    /* Borrowed or NULL: the suite's checker program compiled before (by a
     * validator process), CHECKER_BLOB_LEN bytes; copied by the checker
     * phase instead of compiling it there. */
    const char *checker_blob;
    size_t checker_blob_len;
    /* The program (BLOB_TRIED), the checker program (CHECKER_TRIED) was
     * compiled before: its blob, or NULL when that compile gave no code
     * (an error or a warning its runs report): each run's child compiles
     * it then, not this process again. */
    bool blob_tried;
    bool checker_tried;
};

/* A grading in flight: its runs are entries of a queue group. */
struct pw_grading;
/* The end of a grading: REPORT (stolen; NULL if it could not be built)
 * as pw_grade's.  Called from the queue's turn; it may free the group
 * and the grading. */
typedef void (*pw_grade_done_fn)(void *ctx, json_t *report);

/*
 * What judging CODE (LEN bytes) on S decides before any run: 0 with
 * *REPORT a new reference when no run is needed (CE: the validation
 * refused it; a suite of no tests), or NULL (the tests must run); -1
 * with ERR when validation could not run.
 */
int pw_grade_check(const struct pw_grade_opts *o,
                   const struct pw_grade_suite *s, const char *code,
                   size_t len, json_t **report, struct pw_error *err);
/*
 * Judge CODE (LEN bytes) on S, pw_grade_check having said runs are
 * needed: the runs are queued in G, forked from Z.  Returns the grading
 * (owned); DONE gets its report once the last run is over.  S, CODE
 * and O's pointers are borrowed until then or pw_grade_free; free G
 * first to stop it (no DONE then).
 */
struct pw_grading *
pw_grade_start(struct pw_queue_group *g, struct pw_zygote *z,
               const struct pw_grade_opts *o, const struct pw_grade_suite *s,
               const char *code, size_t len, pw_grade_done_fn done, void *ctx);
void pw_grade_free(struct pw_grading *gr);

/*
 * Judge the program CODE (LEN bytes) on S, blocking: a queue of O->jobs
 * runs of its own.  A new reference:
 * {verdict, passed, total, fraction, points, max_points,
 *  compile_errors: [str] (CE only),
 *  tests: [{name, verdict, time, cpu_time, memory_kb, points,
 *           max_points, stdout, stdout_truncated, stderr, diff,
 *           message, feedback (with a checker program)}]}.
 * NULL with ERR only if validation itself could not run.
 */
json_t *pw_grade(struct pw_zygote *z, const struct pw_grade_opts *o,
                 const struct pw_grade_suite *s, const char *code, size_t len,
                 struct pw_error *err);

/* New reference: REPORT (borrowed) in the shape Moodle CodeRunner's
 * template graders return: {fraction, testresults, prologuehtml}. */
json_t *pw_grade_coderunner(const json_t *report,
                            const struct pw_grade_suite *s);
