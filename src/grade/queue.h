/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * queue.h - the run queue: every run of every door (execute_code over
 * stdio or HTTP, Jobe, grade_code's tests, a session's first call and
 * its calls, `pyward judge`, `pyward run`) is an entry here, started
 * into a bounded number of run slots and stepped by one loop, the
 * caller's: a server polls the queue's fds with its own and steps it;
 * a command drives it with pw_queue_turn.
 *
 * Entries belong to groups (one request: an execute_code is a group of
 * one run, a grade_code a group of its tests), groups to clients (a key
 * the door chooses: the connection, the token, the address).  A free
 * slot goes to the client served least recently, and within it to its
 * group served least recently: one client's long suite takes turns with
 * another's single run, and with its own other requests.  Freeing a
 * group kills its runs and drops its queued entries (a cancel, a client
 * gone).
 *
 * An entry's end is a callback from the queue's turn with the run's
 * typed result (sandbox.h: struct pw_sbx_result); the callback may add
 * entries, or free any group, its own included.
 */
#pragma once

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/pyward.h"
#include "sandbox/sandbox.h"

struct pw_queue;
struct pw_queue_group;
struct pw_queue_entry;

/* What an entry runs. */
struct pw_run_spec {
    /* The request: code or compiled blob, limits, stdin, argv, files,
     * import set and capabilities.  Its pointers are borrowed: what they
     * point to lives until the entry ends (its callback) or its group is
     * freed. */
    struct pw_sbx_request req;
    /* Borrowed: the zygote the run is forked from; the entry waits
     * while it imports its profiles' modules (pw_zygote_warming). */
    struct pw_zygote *zygote;
    /* Borrowed or NULL: forked from here when ZYGOTE refuses (its
     * process is gone). */
    struct pw_zygote *fallback;
    /* A run that is not forked afresh (a session's call, a session's
     * first call): START makes it from the spec when the entry's turn
     * comes, or returns NULL with ERR.  NULL: pw_sbx_start. */
    struct pw_sbx_run *(*start)(void *ctx, const struct pw_run_spec *spec,
                                struct pw_error *err);
    /* START takes a prepared spare of ZYGOTE as a fresh run does (a
     * session's first call): the entry waits for it as one does. */
    bool spare;
};

/* The end of entry INDEX (as given to pw_queue_add) with context CTX:
 * RES the run's result (cleared after the call: the callback may take
 * its pointers, leaving NULL in their place), or NULL when the run could
 * not start (ERR says why).  The entry has left the queue. */
typedef void (*pw_queue_done_fn)(void *ctx, size_t index,
                                 struct pw_sbx_result *res,
                                 const struct pw_error *err);

/* Returns an owned queue of at most MAX_RUNNING runs at a time (at
 * least 1). */
struct pw_queue *pw_queue_new(int max_running);
/* Every run killed, every entry dropped, no callback. */
void pw_queue_free(struct pw_queue *q);
int pw_queue_max_running(const struct pw_queue *q);

/* A new group of CLIENT's (owned by the caller until
 * pw_queue_group_free). */
struct pw_queue_group *pw_queue_group_new(struct pw_queue *q,
                                          unsigned long long client);
/* The client G was made for. */
unsigned long long pw_queue_group_client(const struct pw_queue_group *g);
/* Each end of an entry of G, before its callback: SPEC the entry's, RES
 * (borrowed) or ERR as the callback gets them (the event log's per-run
 * record).  FN may not free G or add entries. */
typedef void (*pw_queue_watch_fn)(void *ctx, const struct pw_run_spec *spec,
                                  const struct pw_sbx_result *res,
                                  const struct pw_error *err);
void pw_queue_group_watch(struct pw_queue_group *g, pw_queue_watch_fn fn,
                          void *ctx);
/* Kill G's runs, drop its queued entries (no callback); G is freed.
 * NULL is ignored. */
void pw_queue_group_free(struct pw_queue_group *g);
/* G's entries queued or running. */
size_t pw_queue_group_size(const struct pw_queue_group *g);
/* Seconds since G's first run started, or -1 if none has. */
double pw_queue_group_elapsed(const struct pw_queue_group *g);
/* The run of G when G is one entry and it runs (borrowed: valid until
 * the queue's next step), else NULL. */
struct pw_sbx_run *pw_queue_group_run(const struct pw_queue_group *g);
/* True while G's next entry waits for its zygote's imports. */
bool pw_queue_group_warming(const struct pw_queue_group *g);

/* Queue a run of SPEC (copied) in G; DONE(CTX, INDEX, ...) at its end.
 * Returns the entry (borrowed: valid until DONE is called or G is
 * freed).  It starts at the queue's next start. */
struct pw_queue_entry *pw_queue_add(struct pw_queue_group *g,
                                    const struct pw_run_spec *spec,
                                    pw_queue_done_fn done, void *ctx,
                                    size_t index);
/* E's run, or NULL while it is queued. */
struct pw_sbx_run *pw_queue_entry_run(const struct pw_queue_entry *e);

/* Start queued entries into the free slots, the least recently served
 * client's first.  Entries that cannot start end at once (their
 * callbacks). */
void pw_queue_start(struct pw_queue *q);
/* Fill up to MAX pollfds the running entries need polled; returns how
 * many.  The same array goes to pw_queue_step. */
int pw_queue_pollfds(struct pw_queue *q, struct pollfd *fds, int max);
/* The pollfds the queue may ask for at most (its slots' runs). */
int pw_queue_pollfds_max(const struct pw_queue *q);
/* Monotonic time (pw_now) by which pw_queue_step must be called, or
 * INFINITY. */
double pw_queue_deadline(const struct pw_queue *q);
/* Step the running entries with the revents of FDS (filled by
 * pw_queue_pollfds; N of them), and end those that are over (their
 * callbacks, in the order they finished). */
void pw_queue_step(struct pw_queue *q, const struct pollfd *fds, int n);

/* One turn of a loop of the caller's own: start, wait for the runs' fds
 * and Z's answers (Z may be NULL) until the next deadline, step.  MASK:
 * the signal mask during the wait, as ppoll's (NULL: unchanged). */
void pw_queue_turn(struct pw_queue *q, struct pw_zygote *z,
                   const sigset_t *mask);

/* Runs in flight, entries queued (not started). */
int pw_queue_running(const struct pw_queue *q);
size_t pw_queue_queued(const struct pw_queue *q);
/* Groups none of whose entries has started that would not start at the
 * next pw_queue_start (the free slots taken in order): what a door
 * counts against its limit of queued requests. */
size_t pw_queue_waiting(const struct pw_queue *q);
/* Runs started since the queue was made: a run younger than AGE seconds
 * is in flight. */
bool pw_queue_young_run(const struct pw_queue *q, double age);

/* One run of REQ forked from Z, driven to its end by a queue of its own
 * (blocking): OUT filled (pw_sbx_result_clear it).  0, or -1 with ERR
 * when it could not start. */
int pw_queue_run_one(struct pw_zygote *z, const struct pw_sbx_request *req,
                     struct pw_sbx_result *out, struct pw_error *err);
/* The same, the result as execute_code fields (a new reference). */
int pw_queue_run_json(struct pw_zygote *z, const struct pw_sbx_request *req,
                      json_t **result, struct pw_error *err);

/* The number of runs worth having in flight on this host (its CPUs). */
int pw_queue_jobs_default(void);
