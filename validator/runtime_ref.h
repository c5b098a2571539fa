/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * runtime_ref.h - a rule file may take a list from the runtime policy
 * (rules/runtime.json) instead of writing it out again: the value
 * {"$runtime": "attributes.inspect"} stands for that list (or string:
 * "attributes.template_names", a pattern), so the validator, the guard
 * and the audit hook refuse the same names.
 */
#pragma once

#include <jansson.h>

#include "core/pyward.h"

struct pw_runtime_refs {
    const char *dir; /* borrowed: where runtime.json is */
    json_t *runtime; /* owned once loaded; NULL before */
};

/* Replace, in the rule file ROOT (PATH, for messages), every
 * {"$runtime": "KEY.SUBKEY"} by a copy of that list of runtime.json.
 * 0, or -1 with ERR naming the file and the reference. */
int pw_runtime_refs_resolve(struct pw_runtime_refs *r, json_t *root,
                            const char *path, struct pw_error *err);
void pw_runtime_refs_free(struct pw_runtime_refs *r);
