/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * json.h - helpers for pyward's strict JSON data files.
 */
#pragma once

#include <jansson.h>
#include <stddef.h>

/*
 * The first key of OBJ that is not among KEYS (the first NKEYS entries, or
 * up to a NULL entry, whichever comes first), or NULL when every key is
 * known.  The result is borrowed from OBJ.
 */
const char *pw_json_unknown_key(json_t *obj, const char *const *keys,
                                size_t nkeys);
