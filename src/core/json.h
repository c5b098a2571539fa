/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * json.h - helpers for pyward's strict JSON data files, and jansson's
 * allocator.
 */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "core/pyward.h"

/*
 * The first key of OBJ that is not among KEYS (the first NKEYS entries, or
 * up to a NULL entry, whichever comes first), or NULL when every key is
 * known.  The result is borrowed from OBJ.
 */
const char *pw_json_unknown_key(json_t *obj, const char *const *keys,
                                size_t nkeys);

/* Load the JSON file PATH strictly (no duplicate keys): a new reference,
 * or NULL with ERR naming the file, line and column. */
json_t *pw_json_load_file(const char *path, struct pw_error *err);

/*
 * V (borrowed; NULL when absent) as a number from MIN to MAX, both
 * included: 1 with *OUT set, 0 when V is NULL (*OUT untouched), -1 when
 * V is anything else (another type, JSON null, a number outside the
 * range).  On -1, ERR (when not NULL) says "'NAME' must be a number
 * from MIN to MAX, not WHAT".  Every number a client sends is read
 * through this or pw_json_integer_in before it is used.
 */
int pw_json_number_in(const json_t *v, const char *name, double min,
                      double max, double *out, struct pw_error *err);

/*
 * V as a whole number from MIN to MAX: an integer, or a real without a
 * fractional part (1e9, or an integer too large for jansson's integers,
 * which pyward's JSON-RPC parser reads as a real).  Returns as
 * pw_json_number_in; the value is converted only once it is known to
 * fit, so no cast overflows.
 */
int pw_json_integer_in(const json_t *v, const char *name, long long min,
                       long long max, long long *out, struct pw_error *err);

/* Make jansson allocate through pw_xmalloc, so that running out of memory
 * inside jansson ends the process like everywhere else (see util.h).  Call
 * once, first thing in main(), before any JSON value exists. */
void pw_json_init(void);

/* json_dumps(V, FLAGS) with every real written in its shortest form that
 * reads back as the same double (0.018, not jansson's
 * 0.017999999999999999), as Python's repr writes floats.  Free with
 * free(); NULL as json_dumps. */
char *pw_json_dumps(const json_t *v, size_t flags);

/* SECONDS rounded to the microsecond (a run's times as results show
 * them). */
double pw_round_us(double seconds);
