/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * queue.c - the run queue (see queue.h): groups of entries per client,
 * a bounded number of runs in flight, the least recently served client
 * and group first, and the runs' ends handed to their callbacks as
 * typed results.
 *
 * Sizes are small (runs in flight up to the host's CPUs or the server's
 * --max-concurrency, queued requests up to its --max-queued), so the
 * choice of the next entry scans the groups.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/blob.h"
#include "core/log.h"
#include "core/util.h"
#include "grade/queue.h"

/* pollfds one run may ask for (pw_sbx_pollfds). */
#define RUN_FDS  8
#define JOBS_MAX 64

struct client {
    unsigned long long key;
    unsigned long long served; /* the turn its last run started */
    size_t ngroups;
    struct client *next;
};

struct pw_queue_entry {
    struct pw_queue_group *g;
    struct pw_run_spec spec;
    pw_queue_done_fn done;
    void *ctx;
    size_t index;
    struct pw_sbx_run *run; /* NULL while queued */
    int fd_start;
    int fd_count; /* -1: not polled this turn */
    bool over;    /* stepped to its end, its callback not yet called */
    struct pw_queue_entry *next;
};

struct pw_queue_group {
    struct pw_queue *q;
    struct client *c;
    unsigned long long served;     /* the turn its last run started */
    unsigned long long seq;        /* creation order */
    struct pw_queue_entry *queued; /* in order */
    struct pw_queue_entry **tail;
    size_t nqueued;
    size_t nrunning;
    size_t nadded;           /* entries ever added */
    double first_start;      /* -1: none yet */
    pw_queue_watch_fn watch; /* or NULL: told of each entry's end */
    void *watch_ctx;
    struct pw_queue_group *next;
};

struct pw_queue {
    int max_running;
    int nrunning;
    struct pw_queue_entry *running;
    struct pw_queue_group *groups; /* in creation order */
    struct pw_queue_group **groups_tail;
    struct client *clients;
    unsigned long long turn;
    unsigned long long seq;
    struct pollfd *fds; /* pw_queue_turn's */
};

int
pw_queue_jobs_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (int)n;
}

struct pw_queue *
pw_queue_new(int max_running)
{
    struct pw_queue *q = pw_xcalloc(1, sizeof(*q));
    q->max_running = max_running > 0 ? max_running : 1;
    q->groups_tail = &q->groups;
    q->fds = pw_xcalloc((size_t)q->max_running * RUN_FDS + 1,
                        sizeof(struct pollfd));
    return q;
}

int
pw_queue_max_running(const struct pw_queue *q)
{
    return q->max_running;
}

static void group_destroy(struct pw_queue_group *g);

void
pw_queue_free(struct pw_queue *q)
{
    if (q == NULL) {
        return;
    }
    struct pw_queue_group *g = q->groups;
    q->groups = NULL;
    while (g != NULL) {
        struct pw_queue_group *next = g->next;
        group_destroy(g);
        g = next;
    }
    free(q->fds);
    free(q);
}

/* --- groups ------------------------------------------------------------ */

static struct client *
client_get(struct pw_queue *q, unsigned long long key)
{
    for (struct client *c = q->clients; c != NULL; c = c->next) {
        if (c->key == key) {
            return c;
        }
    }
    struct client *c = pw_xcalloc(1, sizeof(*c));
    c->key = key;
    c->next = q->clients;
    q->clients = c;
    return c;
}

static void
client_put(struct pw_queue *q, struct client *c)
{
    if (--c->ngroups > 0) {
        return;
    }
    for (struct client **p = &q->clients; *p != NULL; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    free(c);
}

struct pw_queue_group *
pw_queue_group_new(struct pw_queue *q, unsigned long long client)
{
    struct pw_queue_group *g = pw_xcalloc(1, sizeof(*g));
    g->q = q;
    g->c = client_get(q, client);
    g->c->ngroups++;
    g->seq = ++q->seq;
    g->tail = &g->queued;
    g->first_start = -1;
    *q->groups_tail = g;
    q->groups_tail = &g->next;
    return g;
}

unsigned long long
pw_queue_group_client(const struct pw_queue_group *g)
{
    return g->c->key;
}

void
pw_queue_group_watch(struct pw_queue_group *g, pw_queue_watch_fn fn, void *ctx)
{
    g->watch = fn;
    g->watch_ctx = ctx;
}

static void
unlink_group(struct pw_queue *q, struct pw_queue_group *g)
{
    for (struct pw_queue_group **p = &q->groups; *p != NULL; p = &(*p)->next) {
        if (*p == g) {
            *p = g->next;
            if (q->groups_tail == &g->next) {
                q->groups_tail = p;
            }
            return;
        }
    }
}

/* G's runs killed, its entries and G freed (G out of the list). */
static void
group_destroy(struct pw_queue_group *g)
{
    struct pw_queue *q = g->q;
    while (g->queued != NULL) {
        struct pw_queue_entry *e = g->queued;
        g->queued = e->next;
        free(e);
    }
    for (struct pw_queue_entry **p = &q->running; *p != NULL;) {
        struct pw_queue_entry *e = *p;
        if (e->g != g) {
            p = &e->next;
            continue;
        }
        *p = e->next;
        pw_sbx_cancel(e->run);
        pw_sbx_free(e->run);
        q->nrunning--;
        free(e);
    }
    client_put(q, g->c);
    free(g);
}

void
pw_queue_group_free(struct pw_queue_group *g)
{
    if (g != NULL) {
        unlink_group(g->q, g);
        group_destroy(g);
    }
}

size_t
pw_queue_group_size(const struct pw_queue_group *g)
{
    return g->nqueued + g->nrunning;
}

double
pw_queue_group_elapsed(const struct pw_queue_group *g)
{
    return g->first_start < 0 ? -1 : pw_now() - g->first_start;
}

struct pw_sbx_run *
pw_queue_group_run(const struct pw_queue_group *g)
{
    if (g->nadded != 1 || g->nrunning != 1) {
        return NULL;
    }
    for (const struct pw_queue_entry *e = g->q->running; e != NULL;
         e = e->next) {
        if (e->g == g && !e->over) {
            return e->run;
        }
    }
    return NULL;
}

/* True while E's zygote imports its profiles' modules. */
static bool
entry_warming(const struct pw_queue_entry *e)
{
    return e->spec.zygote != NULL && pw_zygote_warming(e->spec.zygote);
}

/* True if E cannot start yet: its zygote imports its modules, or it
 * takes a prepared spare and none is ready (the zygote is asked for one,
 * and the loop's poll of the zygote's fd wakes it): pw_sbx_start would
 * wait for the zygote. */
static bool
entry_waits(const struct pw_queue_entry *e)
{
    const struct pw_run_spec *s = &e->spec;
    return entry_warming(e) ||
           (s->zygote != NULL && (s->start == NULL || s->spare) &&
            !pw_zygote_spare_ready(s->zygote, &s->req));
}

bool
pw_queue_group_warming(const struct pw_queue_group *g)
{
    return g->queued != NULL && entry_warming(g->queued);
}

struct pw_queue_entry *
pw_queue_add(struct pw_queue_group *g, const struct pw_run_spec *spec,
             pw_queue_done_fn done, void *ctx, size_t index)
{
    struct pw_queue_entry *e = pw_xcalloc(1, sizeof(*e));
    e->g = g;
    e->spec = *spec;
    e->done = done;
    e->ctx = ctx;
    e->index = index;
    e->fd_count = -1;
    *g->tail = e;
    g->tail = &e->next;
    g->nqueued++;
    g->nadded++;
    return e;
}

struct pw_sbx_run *
pw_queue_entry_run(const struct pw_queue_entry *e)
{
    return e->run;
}

/* --- starting ---------------------------------------------------------- */

/* G's first queued entry that need not wait for its zygote, and the
 * link that points to it; NULL if none. */
static struct pw_queue_entry **
startable(struct pw_queue_group *g)
{
    for (struct pw_queue_entry **p = &g->queued; *p != NULL; p = &(*p)->next) {
        if (!entry_waits(*p)) {
            return p;
        }
    }
    return NULL;
}

/* True if group A goes before group B: its client served less recently,
 * then the group itself, then the older. */
static bool
before(const struct pw_queue_group *a, const struct pw_queue_group *b)
{
    if (a->c->served != b->c->served) {
        return a->c->served < b->c->served;
    }
    if (a->served != b->served) {
        return a->served < b->served;
    }
    return a->seq < b->seq;
}

/* The group whose entry starts next, or NULL. */
static struct pw_queue_group *
next_group(struct pw_queue *q)
{
    struct pw_queue_group *best = NULL;
    for (struct pw_queue_group *g = q->groups; g != NULL; g = g->next) {
        if (g->queued != NULL && (best == NULL || before(g, best)) &&
            startable(g) != NULL) {
            best = g;
        }
    }
    return best;
}

static struct pw_sbx_run *
start_run(const struct pw_queue_entry *e, struct pw_error *err)
{
    const struct pw_run_spec *s = &e->spec;
    if (s->start != NULL) {
        return s->start(e->ctx, s, err);
    }
    if (s->zygote == NULL) {
        pw_fail(err, PW_ERR_SANDBOX, "the sandbox is unavailable");
        return NULL;
    }
    /* A group of several runs (a suite) starts them back to back: each
     * run forks its replacement as it starts. */
    bool more = e->g->nadded > 1;
    bool was = more ? pw_zygote_refill_on_start(s->zygote, true) : false;
    struct pw_sbx_run *run = pw_sbx_start(s->zygote, &s->req, err);
    if (more) {
        (void)pw_zygote_refill_on_start(s->zygote, was);
    }
    /* A request the other zygote would refuse as well (its limits) is no
     * failure of this one. */
    if (run == NULL && s->fallback != NULL && err->code != PW_ERR_USAGE) {
        pw_log(PW_LOG_WARN, "a zygote failed (%s): forked from the other",
               err->message);
        memset(err, 0, sizeof(*err));
        run = pw_sbx_start(s->fallback, &s->req, err);
    }
    return run;
}

void
pw_queue_start(struct pw_queue *q)
{
    struct pw_queue_group *g;
    while (q->nrunning < q->max_running && (g = next_group(q)) != NULL) {
        struct pw_queue_entry **at = startable(g);
        struct pw_queue_entry *e = at != NULL ? *at : NULL;
        if (e == NULL) {
            break; /* next_group found one */
        }
        *at = e->next;
        if (g->tail == &e->next) {
            g->tail = at;
        }
        e->next = NULL;
        g->nqueued--;
        g->served = g->c->served = ++q->turn;
        struct pw_error err = {0};
        e->run = start_run(e, &err);
        if (e->run == NULL) {
            if (g->watch != NULL) {
                g->watch(g->watch_ctx, &e->spec, NULL, &err);
            }
            pw_queue_done_fn done = e->done;
            void *ctx = e->ctx;
            size_t index = e->index;
            free(e);
            done(ctx, index, NULL, &err); /* may free G */
            continue;
        }
        if (g->first_start < 0) {
            g->first_start = pw_now();
        }
        g->nrunning++;
        q->nrunning++;
        e->fd_count = -1;
        e->next = q->running;
        q->running = e;
    }
}

/* --- stepping ---------------------------------------------------------- */

int
pw_queue_pollfds_max(const struct pw_queue *q)
{
    return q->max_running * RUN_FDS;
}

int
pw_queue_pollfds(struct pw_queue *q, struct pollfd *fds, int max)
{
    int n = 0;
    for (struct pw_queue_entry *e = q->running; e != NULL; e = e->next) {
        if (max - n < RUN_FDS) {
            e->fd_count = -1;
            continue;
        }
        e->fd_start = n;
        e->fd_count = pw_sbx_pollfds(e->run, fds + n, RUN_FDS);
        n += e->fd_count;
    }
    return n;
}

double
pw_queue_deadline(const struct pw_queue *q)
{
    double next = INFINITY;
    for (const struct pw_queue_entry *e = q->running; e != NULL; e = e->next) {
        next = fmin(next, pw_sbx_deadline(e->run));
    }
    return next;
}

/* End E (stepped to its end): out of the queue, its callback. */
static void
finish(struct pw_queue *q, struct pw_queue_entry *e)
{
    struct pw_sbx_result res;
    pw_sbx_result_get(e->run, &res);
    pw_sbx_free(e->run);
    q->nrunning--;
    e->g->nrunning--;
    if (e->g->watch != NULL) {
        e->g->watch(e->g->watch_ctx, &e->spec, &res, NULL);
    }
    pw_queue_done_fn done = e->done;
    void *ctx = e->ctx;
    size_t index = e->index;
    free(e);
    done(ctx, index, &res, NULL); /* may free the group */
    pw_sbx_result_clear(&res);
}

void
pw_queue_step(struct pw_queue *q, const struct pollfd *fds, int n)
{
    for (struct pw_queue_entry *e = q->running; e != NULL; e = e->next) {
        bool polled =
            fds != NULL && e->fd_count >= 0 && e->fd_start + e->fd_count <= n;
        if (!e->over && pw_sbx_step(e->run, polled ? fds + e->fd_start : NULL,
                                    polled ? e->fd_count : 0) == 1) {
            e->over = true;
        }
        e->fd_count = -1;
    }
    /* One at a time: a callback may free groups, its own included. */
    for (;;) {
        struct pw_queue_entry **p = &q->running;
        while (*p != NULL && !(*p)->over) {
            p = &(*p)->next;
        }
        if (*p == NULL) {
            return;
        }
        struct pw_queue_entry *e = *p;
        *p = e->next;
        finish(q, e);
    }
}

void
pw_queue_turn(struct pw_queue *q, struct pw_zygote *z, const sigset_t *mask)
{
    pw_queue_start(q);
    int n = pw_queue_pollfds(q, q->fds, pw_queue_pollfds_max(q));
    int zfd = z != NULL ? pw_zygote_fd(z) : -1;
    int nfds = n;
    if (zfd >= 0) {
        q->fds[nfds++] = (struct pollfd){.fd = zfd, .events = POLLIN};
    }
    double wait = pw_queue_deadline(q) - pw_now();
    bool timed = isfinite(wait);
    wait = !timed || wait <= 0 ? 0 : wait + 0.001;
    struct timespec ts = {.tv_sec = (time_t)wait,
                          .tv_nsec =
                              (long)((wait - (double)(time_t)wait) * 1e9)};
    /* An interrupted wait is stepped all the same: the clock and the
     * fds decide. */
    if ((nfds > 0 || timed) &&
        ppoll(q->fds, (nfds_t)nfds, timed ? &ts : NULL, mask) < 0 &&
        errno != EINTR) {
        for (int i = 0; i < nfds; i++) {
            q->fds[i].revents = 0;
        }
    }
    if (zfd >= 0 && q->fds[n].revents != 0) {
        pw_zygote_collect(z);
    }
    pw_queue_step(q, q->fds, n);
}

/* --- counts ------------------------------------------------------------ */

int
pw_queue_running(const struct pw_queue *q)
{
    return q->nrunning;
}

size_t
pw_queue_queued(const struct pw_queue *q)
{
    size_t n = 0;
    for (const struct pw_queue_group *g = q->groups; g != NULL; g = g->next) {
        n += g->nqueued;
    }
    return n;
}

size_t
pw_queue_waiting(const struct pw_queue *q)
{
    size_t slots = q->nrunning < q->max_running
                       ? (size_t)(q->max_running - q->nrunning)
                       : 0;
    size_t waiting = 0;
    for (const struct pw_queue_group *g = q->groups; g != NULL; g = g->next) {
        if (g->first_start >= 0 || g->queued == NULL) {
            continue;
        }
        if (slots > 0 && !entry_waits(g->queued)) {
            slots--;
        } else {
            waiting++;
        }
    }
    return waiting;
}

bool
pw_queue_young_run(const struct pw_queue *q, double age)
{
    for (const struct pw_queue_entry *e = q->running; e != NULL; e = e->next) {
        if (pw_sbx_elapsed(e->run) < age) {
            return true;
        }
    }
    return false;
}

/* --- one run, blocking ------------------------------------------------- */

struct one {
    struct pw_sbx_result *out;
    struct pw_error *err;
    bool done;
    bool started;
};

static void
one_done(void *ctx, size_t index, struct pw_sbx_result *res,
         const struct pw_error *err)
{
    struct one *o = ctx;
    (void)index;
    o->done = true;
    if (res == NULL) {
        *o->err = *err;
        return;
    }
    o->started = true;
    /* The result's pointers move to the caller's copy. */
    *o->out = *res;
    memset(res, 0, sizeof(*res));
}

int
pw_queue_run_one(struct pw_zygote *z, const struct pw_sbx_request *req,
                 struct pw_sbx_result *out, struct pw_error *err)
{
    struct pw_queue *q = pw_queue_new(1);
    struct pw_queue_group *g = pw_queue_group_new(q, 0);
    struct one o = {.out = out, .err = err};
    struct pw_run_spec spec = {.req = *req, .zygote = z};
    memset(out, 0, sizeof(*out));
    pw_queue_add(g, &spec, one_done, &o, 0);
    while (!o.done) {
        pw_queue_turn(q, z, NULL);
    }
    pw_queue_group_free(g);
    pw_queue_free(q);
    return o.started ? 0 : -1;
}

int
pw_queue_run_json(struct pw_zygote *z, const struct pw_sbx_request *req,
                  json_t **result, struct pw_error *err)
{
    struct pw_sbx_result res;
    if (pw_queue_run_one(z, req, &res, err) < 0) {
        return -1;
    }
    *result = pw_sbx_result_to_json(&res);
    /* A command's result: the files' bytes read now, while their blobs
     * are open. */
    if (*result != NULL && pw_blob_expand(*result) < 0) {
        pw_warn("an output file changed before its result was made");
    }
    pw_sbx_result_clear(&res);
    return *result != NULL
               ? 0
               : pw_fail(err, PW_ERR_INTERNAL, "building the result");
}
