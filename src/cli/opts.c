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

pw_profile_mask
pw_cli_light_mask(const struct pw_ruleset *rs,
                  const struct pw_profiles *profiles, pw_profile_mask mask,
                  const char *code, size_t len)
{
    pw_profile_mask light = pw_profiles_light_mask(profiles, mask);
    if (rs == NULL || light == mask) {
        return mask;
    }
    struct pw_importset set = {.profiles = profiles, .mask = light};
    struct pw_diags d;
    pw_diags_init(&d);
    struct pw_error err = {0};
    bool clean =
        pw_validate(rs, &set, code, len, &d, NULL, &err) == 0 && d.n == 0;
    pw_diags_free(&d);
    return clean ? light : mask;
}

struct pw_ruleset *
pw_cli_ruleset(const char *rules, const char *rules_dir, struct pw_error *err)
{
    if (rules != NULL && pw_is_dir(rules)) {
        return pw_ruleset_load(rules, "default", err);
    }
    return pw_ruleset_load(rules_dir, rules != NULL ? rules : "default", err);
}
