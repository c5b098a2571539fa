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

/* Make jansson allocate through pw_xmalloc, so that running out of memory
 * inside jansson ends the process like everywhere else (see util.h).  Call
 * once, first thing in main(), before any JSON value exists. */
void pw_json_init(void);
