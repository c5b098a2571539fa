/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * json.c - helpers for pyward's strict JSON data files.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "core/json.h"
#include "core/util.h"

void
pw_json_init(void)
{
    json_set_alloc_funcs(pw_xmalloc, free);
}

const char *
pw_json_unknown_key(json_t *obj, const char *const *keys, size_t nkeys)
{
    const char *key;
    json_t *val; /* borrowed */
    json_object_foreach(obj, key, val) {
        bool known = false;
        for (size_t i = 0; i < nkeys && keys[i] != NULL && !known; i++) {
            known = strcmp(key, keys[i]) == 0;
        }
        if (!known) {
            return key;
        }
    }
    return NULL;
}

json_t *
pw_json_load_file(const char *path, struct pw_error *err)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        pw_fail(err, PW_ERR_INPUT, "%s:%d:%d: %s", path, jerr.line,
                jerr.column, jerr.text);
    }
    return root;
}
