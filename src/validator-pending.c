/*
 * validator-pending.c - stands in for the validator until it is built:
 * every check fails with "validator not built" (never "no findings").
 */
#include "config.h"

#include <string.h>

#include "validator.h"

struct pw_ruleset {
    int unused;
};

void
pw_diags_init(struct pw_diags *d)
{
    memset(d, 0, sizeof(*d));
}

void
pw_diags_free(struct pw_diags *d)
{
    memset(d, 0, sizeof(*d));
}

void
pw_diags_sort(struct pw_diags *d)
{
}

json_t *
pw_diags_to_json(const struct pw_diags *d)
{
    return json_array();
}

struct pw_ruleset *
pw_ruleset_load(const char *rules_dir, const char *name, struct pw_error *err)
{
    pw_fail(err, PW_ERR_INTERNAL, "validator not built");
    return NULL;
}

void
pw_ruleset_free(struct pw_ruleset *rs)
{
}

size_t
pw_ruleset_count(const struct pw_ruleset *rs)
{
    return 0;
}

void
pw_ruleset_info(const struct pw_ruleset *rs, size_t i,
                struct pw_rule_info *out)
{
    memset(out, 0, sizeof(*out));
}

int
pw_validate(const struct pw_ruleset *rs, const struct pw_importset *imports,
            const char *src, size_t len, struct pw_diags *out,
            struct pw_analysis *an, struct pw_error *err)
{
    return pw_fail(err, PW_ERR_INTERNAL, "validator not built");
}
