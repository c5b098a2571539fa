/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * runtime_ref.c - resolve {"$runtime": "KEY.SUBKEY"} in a rule file to
 * the list of rules/runtime.json it names (loaded once per rule set).
 */
#include "config.h"

#include <string.h>

#include "core/json.h"
#include "core/util.h"
#include "validator/runtime_ref.h"

/* The list NAME ("attributes.inspect") of runtime.json, or its string
 * ("attributes.template_names", a pattern), borrowed; NULL with ERR. */
static json_t *
lookup(struct pw_runtime_refs *r, const char *name, const char *path,
       struct pw_error *err)
{
    if (r->runtime == NULL) {
        PW_AUTOFREE char *file = pw_xasprintf("%s/runtime.json", r->dir);
        r->runtime = pw_json_load_file(file, err);
        if (r->runtime == NULL) {
            return NULL;
        }
    }
    const char *dot = strchr(name, '.');
    json_t *v = NULL;
    if (dot != NULL) {
        PW_AUTOFREE char *key = pw_xstrndup(name, (size_t)(dot - name));
        v = json_object_get(json_object_get(r->runtime, key), dot + 1);
    }
    if (!json_is_array(v) && !json_is_string(v)) {
        pw_fail(err, PW_ERR_INPUT,
                "%s: {\"$runtime\": \"%s\"}: runtime.json has no such list "
                "or string",
                path, name);
        return NULL;
    }
    return v;
}

/* A reference: an object whose only key is "$runtime". */
static const char *
ref_name(json_t *v)
{
    return json_is_object(v) && json_object_size(v) == 1
               ? json_string_value(json_object_get(v, "$runtime"))
               : NULL;
}

static int resolve(struct pw_runtime_refs *r, json_t *node, const char *path,
                   struct pw_error *err);

/* Resolve the value V: a reference sets *OUT to a new list to put in its
 * place, anything else is walked. */
static int
resolve_value(struct pw_runtime_refs *r, json_t *v, json_t **out,
              const char *path, struct pw_error *err)
{
    *out = NULL;
    const char *name = ref_name(v);
    if (name == NULL) {
        return resolve(r, v, path, err);
    }
    json_t *list = lookup(r, name, path, err);
    if (list == NULL) {
        return -1;
    }
    *out = json_deep_copy(list);
    return 0;
}

static int
resolve(struct pw_runtime_refs *r, json_t *node, const char *path,
        struct pw_error *err)
{
    json_t *v, *list;
    if (json_is_object(node)) {
        const char *key;
        json_object_foreach(node, key, v) {
            if (resolve_value(r, v, &list, path, err) < 0) {
                return -1;
            }
            if (list != NULL) {
                json_object_set_new(node, key, list);
            }
        }
    } else if (json_is_array(node)) {
        size_t i;
        json_array_foreach(node, i, v) {
            if (resolve_value(r, v, &list, path, err) < 0) {
                return -1;
            }
            if (list != NULL) {
                json_array_set_new(node, i, list);
            }
        }
    }
    return 0;
}

int
pw_runtime_refs_resolve(struct pw_runtime_refs *r, json_t *root,
                        const char *path, struct pw_error *err)
{
    return resolve(r, root, path, err);
}

void
pw_runtime_refs_free(struct pw_runtime_refs *r)
{
    json_decref(r->runtime);
    r->runtime = NULL;
}
