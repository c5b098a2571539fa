/*
 * pending.c - temporary definitions of the validator and sandbox entry
 * points until those parts are built.  Each one fails with "not built
 * yet"; none returns a result.
 */
#include "config.h"

#include "sandbox.h"
#include "validator.h"

#define NOT_BUILT(WHAT)                                                       \
    pw_fail(err, PW_ERR_INTERNAL, "%s is not built yet", WHAT)

void
pw_diags_init(struct pw_diags *d)
{
    d->v = NULL;
    d->n = 0;
    d->cap = 0;
}

void
pw_diags_free(struct pw_diags *d)
{
    pw_diags_init(d);
}

void
pw_diags_sort(struct pw_diags *d)
{
}

json_t *
pw_diags_to_json(const struct pw_diags *d)
{
    return NULL;
}

struct pw_ruleset *
pw_ruleset_load(const char *rules_dir, const char *name, struct pw_error *err)
{
    NOT_BUILT("the validator");
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
}

int
pw_validate(const struct pw_ruleset *rs, const struct pw_importset *imports,
            const char *src, size_t len, struct pw_diags *out,
            struct pw_analysis *an, struct pw_error *err)
{
    return NOT_BUILT("the validator");
}

struct pw_zygote *
pw_zygote_new(const struct pw_profiles *profiles, pw_profile_mask enabled,
              struct pw_error *err)
{
    NOT_BUILT("the sandbox");
    return NULL;
}

void
pw_zygote_free(struct pw_zygote *z)
{
}

json_t *
pw_zygote_layers_json(const struct pw_zygote *z)
{
    return NULL;
}

struct pw_sbx_run *
pw_sbx_start(struct pw_zygote *z, const struct pw_sbx_request *req,
             struct pw_error *err)
{
    NOT_BUILT("the sandbox");
    return NULL;
}

int
pw_sbx_pollfds(const struct pw_sbx_run *run, struct pollfd *fds, int max)
{
    return 0;
}

int
pw_sbx_step(struct pw_sbx_run *run, const struct pollfd *fds, int n)
{
    return 1;
}

double
pw_sbx_deadline(const struct pw_sbx_run *run)
{
    return 0;
}

void
pw_sbx_cancel(struct pw_sbx_run *run)
{
}

double
pw_sbx_elapsed(const struct pw_sbx_run *run)
{
    return 0;
}

json_t *
pw_sbx_result_json(const struct pw_sbx_run *run)
{
    return NULL;
}

void
pw_sbx_free(struct pw_sbx_run *run)
{
}

int
pw_sbx_run_sync(struct pw_zygote *z, const struct pw_sbx_request *req,
                json_t **result, struct pw_error *err)
{
    return NOT_BUILT("the sandbox");
}
