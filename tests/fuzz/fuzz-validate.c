/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz-validate.c - the validator over Python source bytes, with both
 * shipped rule sets (default and restricted) and the default profiles'
 * import allow-list.  The diagnostics are also turned into JSON, as the
 * validate_code tool does.
 */
#include "config.h"

#include <jansson.h>

#include "fuzz.h"
#include "core/profiles.h"
#include "validator/validator.h"

static struct pw_profiles *profiles;
static struct pw_ruleset *sets[2];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const char *const names[] = {"default", "restricted"};
    struct pw_error err = {0};
    pw_fuzz_init_python();
    profiles = pw_profiles_load(pw_fuzz_rules_dir(), &err);
    if (profiles == NULL) {
        pw_fuzz_die("profiles", err.message);
    }
    for (int i = 0; i < 2; i++) {
        sets[i] = pw_ruleset_load(pw_fuzz_rules_dir(), names[i], &err);
        if (sets[i] == NULL) {
            pw_fuzz_die("rules", err.message);
        }
    }
    return 0;
}

static void
validate_with(const struct pw_ruleset *rs, const uint8_t *data, size_t size)
{
    struct pw_importset imports = {
        profiles, pw_profiles_default_mask(profiles), NULL, NULL};
    struct pw_diags d;
    struct pw_analysis an;
    struct pw_error err = {0};
    pw_diags_init(&d);
    if (pw_validate(rs, &imports, (const char *)data, size, &d, &an, &err) ==
        0) {
        pw_diags_sort(&d);
        json_decref(pw_diags_to_json(&d));
    }
    pw_diags_free(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    validate_with(sets[0], data, size);
    validate_with(sets[1], data, size);
    return 0;
}
