/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * batch.c - a small event loop over several runs: start up to JOBS,
 * poll every fd they report (and the zygote's, so refills land in the
 * pool as they come), step them, start the next as one finishes.
 */
#include "config.h"

#include <poll.h>
#include <unistd.h>

#include "core/util.h"
#include "grade/batch.h"

/* pollfds one run may ask for (pw_sbx_pollfds). */
#define RUN_FDS  8
#define JOBS_MAX 64

struct slot {
    struct pw_sbx_run *run;
    size_t index;
    int first; /* its pollfds in the batch's array */
    int count;
};

int
pw_batch_jobs_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (int)n;
}

static json_t *
not_started(const struct pw_error *err)
{
    return json_pack("{s:b,s:s,s:{s:s,s:s}}", "success", 0, "status",
                     "internal_error", "error", "type", "SandboxError",
                     "message", err->message);
}

/* Poll every run of SLOTS (and the zygote); returns how many fds. */
static int
gather(struct pw_zygote *z, struct slot *slots, int n, struct pollfd *fds,
       double *deadline)
{
    int m = 0;
    *deadline = 1e300;
    for (int i = 0; i < n; i++) {
        slots[i].first = m;
        slots[i].count = pw_sbx_pollfds(slots[i].run, fds + m, RUN_FDS);
        m += slots[i].count;
        double d = pw_sbx_deadline(slots[i].run);
        *deadline = d < *deadline ? d : *deadline;
    }
    if (pw_zygote_fd(z) >= 0) {
        fds[m++] = (struct pollfd){.fd = pw_zygote_fd(z), .events = POLLIN};
    }
    return m;
}

/* Step every run; finished ones leave SLOTS with their result stored.
 * Returns how many are left. */
static int
step_all(struct slot *slots, int n, const struct pollfd *fds, json_t **results)
{
    int keep = 0;
    for (int i = 0; i < n; i++) {
        struct slot *s = &slots[i];
        if (pw_sbx_step(s->run, fds + s->first, s->count) == 1) {
            results[s->index] = pw_sbx_result_json(s->run);
            pw_sbx_free(s->run);
        } else {
            slots[keep++] = *s;
        }
    }
    return keep;
}

void
pw_batch_run(struct pw_zygote *z, const struct pw_sbx_request *reqs, size_t n,
             int jobs, json_t **results)
{
    jobs = jobs < 1 ? 1 : jobs > JOBS_MAX ? JOBS_MAX : jobs;
    /* The next runs follow at once: each run forks its replacement as it
     * starts, whatever the caller's pace (a server refills in pauses). */
    bool refill = pw_zygote_refill_on_start(z, true);
    struct slot slots[JOBS_MAX];
    struct pollfd fds[JOBS_MAX * RUN_FDS + 1];
    int active = 0;
    size_t next = 0;
    while (next < n || active > 0) {
        while (active < jobs && next < n) {
            struct pw_error err = {0};
            struct pw_sbx_run *r = pw_sbx_start(z, &reqs[next], &err);
            if (r == NULL) {
                results[next++] = not_started(&err);
                continue;
            }
            slots[active++] = (struct slot){.run = r, .index = next++};
        }
        if (active == 0) {
            break;
        }
        double deadline;
        int m = gather(z, slots, active, fds, &deadline);
        double wait = deadline - pw_now();
        int ms = wait <= 0 ? 0 : (int)(wait * 1000) + 1;
        /* An interrupted poll is stepped all the same: the clock and the
         * fds decide. */
        (void)poll(fds, (nfds_t)m, ms);
        if (pw_zygote_fd(z) >= 0 && fds[m - 1].fd == pw_zygote_fd(z) &&
            fds[m - 1].revents != 0) {
            pw_zygote_collect(z);
        }
        active = step_all(slots, active, fds, results);
    }
    (void)pw_zygote_refill_on_start(z, refill);
}
