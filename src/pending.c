/*
 * pending.c - temporary definitions of the sandbox entry points until
 * that part is built.  Each one fails with "not built yet"; none returns
 * a result.
 */
#include "config.h"

#include "sandbox.h"

#define NOT_BUILT(WHAT)                                                       \
    pw_fail(err, PW_ERR_INTERNAL, "%s is not built yet", WHAT)

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
