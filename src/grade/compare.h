/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * compare.h - the built-in checkers: does a program's output match what
 * a test expects, and if not, where they first differ.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "grade/suite.h"

/* True if GOT matches WANT under CHECKER (not PW_CHECK_PROGRAM).  When
 * not, DIFF (LEN bytes, always terminated) tells the first difference
 * in a line for a person: "line 2: expected \"5\", got \"6\"". */
bool pw_compare(enum pw_checker checker, double tolerance, const char *want,
                size_t want_len, const char *got, size_t got_len, char *diff,
                size_t len);
