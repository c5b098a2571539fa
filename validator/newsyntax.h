/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * newsyntax.h - syntax errors that are newer Python: a program written
 * for Python 3.12 (a `type` alias, a generic function or class, an
 * f-string holding a backslash or a comment) fails to parse under the
 * embedded interpreter, and its finding says so.
 */
#pragma once

#include <stddef.h>

/* What on line LINE (1-based) of SRC (LEN bytes), whose parse failed with
 * the message MSG, is syntax of a newer Python than the interpreter's:
 * "a 'type' alias statement", ...; NULL if nothing is known to be.
 * Borrowed, static. */
const char *pw_newer_syntax(const char *src, size_t len, long line,
                            const char *msg);
