/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * grade_tool.h - the grade_code tool: judge a program on a suite of
 * tests (the `pyward judge` semantics) for a client.
 */
#pragma once

#include <jansson.h>

#include "core/profiles.h"
#include "core/pyward.h"
#include "grade/queue.h"
#include "sandbox/sandbox.h"
#include "server/conf.h"
#include "validator/validator.h"

/* What grading needs of the server (all borrowed). */
struct pw_grade_ctx {
    const struct pw_conf *cfg;
    const struct pw_profiles *profiles;
    const struct pw_ruleset *rules; /* NULL: unavailable */
    struct pw_zygote *zygote;       /* NULL: unavailable */
    const char *unavailable;        /* why one of them is NULL */
    unsigned caps; /* the call's profiles' (its import set may be narrower) */
    /* Borrowed or NULL: the program's findings from a validator process
     * (the call then validates nothing itself). */
    struct pw_diags *checked;
    /* Borrowed or NULL: the program compiled by it (BLOB_LEN bytes). */
    const char *blob;
    size_t blob_len;
    bool blob_tried; /* it was asked to compile it (BLOB NULL: no code) */
};

/* A grade_code call in flight (its tests queued). */
struct pw_grade_call;
/* Its end: RESULT the CallToolResult (stolen; NULL if it could not be
 * built).  Called from the queue's turn. */
typedef void (*pw_grade_call_done_fn)(void *ctx, json_t *result);

/* Check the suite TESTS (the tests file's object, borrowed) against the
 * server's limits and validate CODE (LEN bytes, borrowed until the call
 * is freed) with the imports SET (copied; its pointers borrowed):
 * returns an owned call ready to queue, or NULL with *RESULT set (the
 * verdict needs no run: CE), or NULL with ERR (PW_ERR_USAGE: a
 * malformed suite or limits beyond the server's). */
struct pw_grade_call *pw_grade_call_new(const struct pw_grade_ctx *c,
                                        const char *code, size_t len,
                                        const struct pw_importset *set,
                                        const json_t *tests, json_t **result,
                                        struct pw_error *err);
/* The suite's checker program when it runs on more than one test (to be
 * compiled once for them: pw_grade_call_take_checker_blob), borrowed
 * from GC with its *LEN; NULL if none. */
const char *pw_grade_call_checker(const struct pw_grade_call *gc, size_t *len);
/* The checker program compiled (BLOB, BLOB_LEN bytes, taken), before
 * the call is submitted: its runs load it instead of the loop compiling
 * it. */
void pw_grade_call_take_checker_blob(struct pw_grade_call *gc, char *blob,
                                     size_t blob_len);
/* Queue the call's tests in G; DONE(CTX, ...) once the last is over. */
void pw_grade_call_submit(struct pw_grade_call *gc, struct pw_queue_group *g,
                          pw_grade_call_done_fn done, void *ctx);
/* The most the tests may take, seconds (for progress): their CPU time
 * limits times the wall clock's multiple. */
double pw_grade_call_timeout(const struct pw_grade_call *gc);
void pw_grade_call_free(struct pw_grade_call *gc);
