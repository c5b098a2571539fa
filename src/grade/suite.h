/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * suite.h - a grading suite: the tests a program is judged on (the
 * TESTS file of `pyward judge`, the "tests" argument of grade_code),
 * read strictly so that a mistake names the test and the field.
 */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "core/pyward.h"

/* How a test's output is compared with what it expects. */
enum pw_checker {
    PW_CHECK_EXACT,      /* byte for byte */
    PW_CHECK_WHITESPACE, /* trailing blanks of lines and blank lines at
                            the end ignored */
    PW_CHECK_TOKENS,     /* the same words separated by any whitespace */
    PW_CHECK_FLOAT,      /* tokens; numbers equal within the tolerance */
    PW_CHECK_PROGRAM,    /* the suite's checker program decides */
};

struct pw_grade_test {
    char *name;       /* owned */
    char *stdin_data; /* owned, STDIN_LEN bytes */
    size_t stdin_len;
    char *expected; /* owned, EXPECTED_LEN bytes; NULL: none given */
    size_t expected_len;
    enum pw_checker checker;
    double tolerance; /* absolute, and relative to the expected number */
    double timeout;   /* seconds; 0: the sandbox's default */
    long long memory; /* bytes; 0: the sandbox's default */
    double points;
};

/* How the tests of a suite run. */
enum pw_isolation {
    /* One process runs the tests one after the other (fresh __main__
     * globals and the state a test changed undone before the next);
     * from a test that ends or taints that process on, one process per
     * test (doc/GRADING.md). */
    PW_ISOLATION_BATCH,
    PW_ISOLATION_PROCESS, /* a fresh process per test */
};

struct pw_grade_suite {
    enum pw_isolation isolation; /* "isolation": "batch" (default) or
                                    "process" */
    struct pw_grade_test *tests; /* owned, N */
    size_t n;
    char *checker_code; /* owned Python source, or NULL */
    size_t checker_len;
};

/* Tests at most in one suite, wherever it is judged (pyward judge,
 * grade_code). */
#define PW_GRADE_TESTS_MAX 200

/* Fill S from ROOT ({"tests": [...], "defaults": {...},
 * "checker_code": "..."}; with BASE_DIR non-NULL also "checker_program",
 * a file name relative to it).  ROOT is borrowed.  0, or -1 with ERR
 * naming the test and the field (S is then empty). */
int pw_grade_suite_parse(const json_t *root, const char *base_dir,
                         struct pw_grade_suite *s, struct pw_error *err);
/* The same from the JSON file PATH. */
int pw_grade_suite_load(const char *path, struct pw_grade_suite *s,
                        struct pw_error *err);
void pw_grade_suite_free(struct pw_grade_suite *s);

/* "exact" ... "program" and back; -1 for an unknown name. */
int pw_checker_parse(const char *name);
const char *pw_checker_name(enum pw_checker c);
