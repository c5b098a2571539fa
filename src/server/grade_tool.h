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
#include "sandbox/sandbox.h"
#include "server/conf.h"
#include "validator/validator.h"

/* Tests a grade_code call may carry at most. */
#define PW_GRADE_TOOL_TESTS_MAX 200

/* What grading needs of the server (all borrowed). */
struct pw_grade_ctx {
    const struct pw_conf *cfg;
    const struct pw_profiles *profiles;
    const struct pw_ruleset *rules; /* NULL: unavailable */
    struct pw_zygote *zygote;       /* NULL: unavailable */
    const char *unavailable;        /* why one of them is NULL */
    unsigned caps; /* the call's profiles' (its import set may be narrower) */
};

/* Grade CODE (LEN bytes) with the imports SET on the suite TESTS (the
 * tests file's object, borrowed).  Sets *RESULT to a new CallToolResult
 * and returns 0, or returns -1 with ERR (PW_ERR_USAGE: a malformed
 * suite or limits beyond the server's). */
int pw_grade_tool(const struct pw_grade_ctx *c, const char *code, size_t len,
                  const struct pw_importset *set, const json_t *tests,
                  json_t **result, struct pw_error *err);
