/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * blob.h - a small program compiled for its run in C: the guard's rewrite
 * (every attribute read through $getattr, the last expression's value
 * kept as $result, public attribute stores the policy allows left as they
 * are) made on CPython's C-level tree, for the programs whose rewrite
 * needs nothing more.
 */
#pragma once

#include "core/py.h"

/* True if the guard refuses a store or delete of attribute NAME (UTF-8,
 * not starting with '_'). */
typedef bool (*pw_blob_store_refused)(const char *name);

/*
 * SRC (LEN bytes) compiled as the guard's rewrite_compile compiles it for
 * a run, marshalled: a new bytes reference.  NULL, with no exception set,
 * when this path does not apply and the guard's own must be taken: an
 * attribute stored or deleted whose name starts with '_' or that REFUSED
 * says the guard refuses (any, if REFUSED is NULL), a name or attribute
 * that starts with two
 * underscores, a class pattern, a tree over 200 levels deep, a source
 * with a NUL, a byte-order mark or
 * what may be a coding declaration, one that does not parse or compile, or
 * one whose parse or compile warns (the run must show the warning).
 */
PyObject *pw_blob_compile(const char *src, size_t len,
                          pw_blob_store_refused refused);
/* (SRC is NUL-terminated at LEN.) */
