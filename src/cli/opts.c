/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * opts.c - the options `run` and `judge` share: the profile list and the
 * rule set.
 */
#include "config.h"

#include <string.h>

#include "cli/opts.h"
#include "core/util.h"

int
pw_cli_add_profile(char *list, size_t len, const char *name)
{
    size_t used = strlen(list);
    if (used + strlen(name) + 2 > len) {
        return -1;
    }
    list[used] = ',';
    memcpy(list + used + 1, name, strlen(name) + 1);
    return 0;
}

struct pw_ruleset *
pw_cli_ruleset(const char *rules, const char *rules_dir, struct pw_error *err)
{
    if (rules != NULL && pw_is_dir(rules)) {
        return pw_ruleset_load(rules, "default", err);
    }
    return pw_ruleset_load(rules_dir, rules != NULL ? rules : "default", err);
}
