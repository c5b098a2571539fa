/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * server.c - the poll() loop of `pyward serve`.
 *
 * stdin is read only when poll says it is readable and output goes through
 * a queue written only as far as the protocol fd takes it, so the loop
 * never blocks: runs keep going while requests are read and answered.
 * Every run of every request (execute_code, a grade_code's tests, a
 * session's first call and its calls, a Jobe run) is an entry of the
 * run queue (src/grade/queue.c), polled and stepped here; a request in
 * flight is a job, whose reply is sent when its call's last run ends.
 *
 * Defines pw_server_* and pw_rpc_req_clear.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "server/rpc.h"
#include "core/log.h"
#include "core/reply.h"
#include "server/events.h"
#include "server/parse.h"
#include "server/server.h"
#include "server/sessions.h"
#include "core/util.h"
#include "grade/queue.h"
#include "server/stream.h"

/* The loop's own fds: stdin, stdout, the full and the light zygote, the
 * validator processes. */
#define VPROC_FDS      4
#define FORK_FDS       (VPROC_FDS + PW_TOOLS_VPROCS)
#define PARSE_FD       (FORK_FDS + PW_TOOLS_FORKS * PW_TOOLS_FORK_FDS)
#define LOOP_FDS       (PARSE_FD + 1)
#define PROGRESS_EVERY 0.25        /* seconds */
#define OUTPUT_BACKLOG (64u << 20) /* stop reading past this */
#define MAX_QUEUED     1024        /* runs waiting; more are refused */
#define DRAIN_TICK_MS  100         /* how often a drain looks at the clock */
/* When a reply cannot be built (a message cut inside a character is not
 * valid UTF-8, so jansson refuses it). */
#define FALLBACK_REPLY                                                        \
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":"                   \
    "-32603,\"message\":\"the reply could not be built\"}}"

/* A request in flight: its call's runs are the entries of GROUP. */
struct job {
    struct pw_server *s;
    struct pw_rpc_req req;
    struct pw_exec *exec;
    struct pw_queue_group *group; /* owned */
    json_t *token;                /* progressToken or NULL */
    double next_progress;
    struct pw_stream stream; /* the output its progress carried */
    double submitted;
    char door[16]; /* the event log's door and client */
    char client[96];
    struct job *next;
};

struct pw_batch {
    struct pw_sink *sink; /* borrowed, or NULL */
    size_t pending;
    struct pw_reply *parts; /* owned: the replies so far, "[" first */
    bool any;
};

/* A stdio line given to the parse worker. */
struct line_job {
    struct pw_parse_job base; /* first */
    struct pw_server *s;
    char *text; /* owned, freed by the worker once parsed */
    size_t off; /* the line: TEXT[OFF..OFF+LEN) */
    size_t len;
    struct pw_rpc_msg msg;
};

/* A stdio line read while one before it is being parsed: it waits. */
struct held_line {
    struct held_line *next;
    size_t len;
    bool oversized;
    char text[]; /* LEN bytes and a NUL */
};

struct pw_server {
    struct pw_rpc_in in;
    struct pw_parse *parse;      /* owned: the parse worker, or NULL */
    struct line_job *line_job;   /* the stdio line being parsed, or NULL */
    struct held_line *held;      /* owned: the lines after it, in order */
    struct held_line *held_tail; /* the last of them */
    struct pw_rpc_out out;
    struct pw_server_handler handler;
    struct pw_tools *tools;
    struct pw_queue *q; /* owned: every run */
    struct job *jobs;   /* the requests in flight */
    bool eof;
    struct pollfd *fds;
    double last_activity; /* a request read or a run answered */
    double last_answer;   /* a run answered */
    struct pw_server_transport tr;
    bool has_transport;
    bool draining;
    double grace;
    double drain_start;
    double drain_until;
    size_t max_queued;
    struct pw_server_stats stats;
    double session_tick; /* when sessions expire next (pw_sessions_tick) */
    bool events_busy;    /* the event log has records waiting */
};

const double pw_stats_bounds[PW_STATS_BUCKETS] = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
};

static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t hup_signal;

static void
on_stop(int sig)
{
    stop_signal = sig;
}

static void
on_hup(int sig)
{
    hup_signal = sig;
}

void
pw_rpc_req_clear(struct pw_rpc_req *req)
{
    free(req->id_raw);
    json_decref(req->id);
    req->id_raw = NULL;
    req->id = NULL;
}

static void install_signals(bool hup);

/* The stop signals are taken from here on, before the server says it
 * serves: a SIGTERM right after that line ends it as the loop would. */
struct pw_server *
pw_server_new(int proto_fd, struct pw_tools *tools, int max_concurrency)
{
    struct pw_server *s = pw_xcalloc(1, sizeof(*s));
    pw_rpc_in_init(&s->in);
    pw_rpc_out_init(&s->out, proto_fd);
    s->tools = tools;
    s->q = pw_queue_new(max_concurrency);
    s->max_queued = MAX_QUEUED;
    /* Every status a run can end with, at 0 from the start. */
    for (int i = PW_SBX_OK; i <= PW_SBX_INTERNAL_ERROR; i++) {
        snprintf(s->stats.status[i].name, sizeof(s->stats.status[i].name),
                 "%s", pw_sbx_status_name((enum pw_sbx_status)i));
    }
    s->stats.nstatus = PW_SBX_INTERNAL_ERROR + 1;
    s->fds = pw_xcalloc((size_t)pw_queue_pollfds_max(s->q) + LOOP_FDS +
                            PW_SERVER_TRANSPORT_FDS,
                        sizeof(struct pollfd));
    s->parse = pw_parse_new();
    install_signals(false);
    return s;
}

struct pw_parse *
pw_server_parser(struct pw_server *s)
{
    return s->parse;
}

void
pw_server_set_transport(struct pw_server *s,
                        const struct pw_server_transport *t, double grace)
{
    s->tr = *t;
    s->has_transport = true;
    s->grace = grace;
    install_signals(true);
}

void
pw_server_set_max_queued(struct pw_server *s, int max)
{
    s->max_queued = max > 0 ? (size_t)max : 1;
}

const struct pw_server_stats *
pw_server_stats(const struct pw_server *s)
{
    return &s->stats;
}

int
pw_server_running(const struct pw_server *s)
{
    return pw_queue_running(s->q);
}

size_t
pw_server_queued(const struct pw_server *s)
{
    return pw_queue_queued(s->q);
}

void
pw_server_count_rejected(struct pw_server *s)
{
    s->stats.blocked_validator++;
}

/* Count a run answered with STATUS after SECONDS. */
static void
count_run(struct pw_server *s, const char *status, double seconds)
{
    struct pw_server_stats *st = &s->stats;
    int i = 0;
    while (i < st->nstatus && strcmp(st->status[i].name, status) != 0) {
        i++;
    }
    if (i == st->nstatus && st->nstatus < PW_STATS_STATUSES) {
        snprintf(st->status[i].name, sizeof(st->status[i].name), "%s", status);
        st->nstatus++;
    }
    if (i < st->nstatus) {
        st->status[i].n++;
    }
    for (int b = 0; b < PW_STATS_BUCKETS; b++) {
        st->latency[b] += seconds <= pw_stats_bounds[b];
    }
    st->latency_count++;
    st->latency_sum += seconds;
}

void
pw_server_set_handler(struct pw_server *s, const struct pw_server_handler *h)
{
    s->handler = *h;
}

/* Tell the client (through the handler's NOTE) what became of a run. */
static void note(struct pw_server *s, const char *fmt, ...) PW_PRINTF(2, 3);

static void
note(struct pw_server *s, const char *fmt, ...)
{
    if (s->handler.note == NULL) {
        return;
    }
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    s->handler.note(s->handler.ctx, text);
}

/* Remove J from the jobs; returns true if it was there. */
static bool
unlink_job(struct pw_server *s, struct job *j)
{
    for (struct job **p = &s->jobs; *p != NULL; p = &(*p)->next) {
        if (*p == j) {
            *p = j->next;
            return true;
        }
    }
    return false;
}

/* J out of the jobs (if it is there) and freed: its runs killed, its
 * queued entries dropped (the group first: its entries point into the
 * exec). */
static void
job_free(struct pw_server *s, struct job *j)
{
    (void)unlink_job(s, j);
    pw_queue_group_free(j->group);
    pw_tools_exec_free(j->exec);
    json_decref(j->token);
    pw_rpc_req_clear(&j->req);
    free(j);
}

/* Kill every run and drop every request; their batches get no reply. */
static void
drop_jobs(struct pw_server *s)
{
    while (s->jobs != NULL) {
        struct job *j = s->jobs;
        s->jobs = j->next;
        j->next = NULL;
        if (j->req.batch != NULL) {
            pw_server_batch_release(s, j->req.batch);
        }
        job_free(s, j);
    }
}

void
pw_server_free(struct pw_server *s)
{
    if (s == NULL) {
        return;
    }
    pw_parse_free(s->parse); /* a line being parsed is dropped */
    s->line_job = NULL;
    while (s->held != NULL) {
        struct held_line *h = s->held;
        s->held = h->next;
        free(h);
    }
    drop_jobs(s);
    pw_queue_free(s->q);
    pw_rpc_in_free(&s->in);
    pw_rpc_out_free(&s->out);
    free(s->fds);
    free(s);
}

/* --- output ----------------------------------------------------------- */

static void
queue_line(struct pw_server *s, const char *line)
{
    pw_rpc_out_queue(&s->out, line);
    pw_rpc_out_flush(&s->out);
}

void
pw_server_notify(struct pw_server *s, char *line)
{
    pw_server_notify_to(s, NULL, line);
}

void
pw_server_notify_to(struct pw_server *s, struct pw_sink *sink, char *line)
{
    if (line != NULL && sink != NULL) {
        sink->notify(sink, line);
    } else if (line != NULL) {
        queue_line(s, line);
    }
    free(line);
}

struct pw_batch *
pw_server_batch_new(struct pw_server *s, size_t n, struct pw_sink *sink)
{
    struct pw_batch *b = pw_xcalloc(1, sizeof(*b));
    b->sink = sink;
    b->pending = n + 1;
    b->parts = pw_reply_new();
    return b;
}

void
pw_server_batch_release(struct pw_server *s, struct pw_batch *b)
{
    if (--b->pending > 0) {
        return;
    }
    struct pw_reply *parts = b->parts;
    if (b->any) {
        pw_reply_text(parts, "]", 1);
    } else {
        pw_reply_free(parts);
        parts = NULL;
    }
    if (b->sink != NULL) {
        b->sink->reply(b->sink, parts);
    } else if (parts != NULL) {
        pw_rpc_out_queue_reply(&s->out, parts);
        pw_rpc_out_flush(&s->out);
    }
    free(b);
}

void
pw_server_send_reply(struct pw_server *s, const struct pw_rpc_req *req,
                     struct pw_reply *r)
{
    if (r == NULL) {
        r = pw_reply_new();
        pw_reply_text(r, FALLBACK_REPLY, strlen(FALLBACK_REPLY));
    }
    struct pw_batch *b = req->batch;
    if (b == NULL && req->sink != NULL) {
        req->sink->reply(req->sink, r);
    } else if (b == NULL) {
        pw_rpc_out_queue_reply(&s->out, r);
        pw_rpc_out_flush(&s->out);
    } else {
        pw_reply_text(b->parts, b->any ? "," : "[", 1);
        b->any = true;
        pw_reply_append(b->parts, r);
        pw_server_batch_release(s, b);
    }
}

void
pw_server_send(struct pw_server *s, const struct pw_rpc_req *req, char *line)
{
    struct pw_reply *r = NULL;
    if (line != NULL) {
        r = pw_reply_new();
        pw_reply_text(r, line, strlen(line));
        free(line);
    }
    pw_server_send_reply(s, req, r);
}

/* --- runs ------------------------------------------------------------- */

/* Progress of J: running for how long, or waiting for the zygote's
 * imports (a queued job waiting for a free slot says nothing). */
static void
send_progress(struct pw_server *s, struct job *j, double now)
{
    double elapsed = pw_queue_group_elapsed(j->group);
    double total = pw_tools_exec_timeout(j->exec);
    char msg[96];
    if (elapsed >= 0) {
        snprintf(msg, sizeof(msg), "running for %.2f s", elapsed);
    } else {
        snprintf(msg, sizeof(msg),
                 "waiting %.2f s for the sandbox to import its profiles' "
                 "modules",
                 now - j->submitted);
        elapsed = 0;
    }
    json_auto_t *params = json_pack(
        "{s:O,s:f,s:f,s:s}", "progressToken", j->token, "progress",
        floor(elapsed * 1000) / 1000, "total", total, "message", msg);
    json_t *meta = pw_stream_meta(&j->stream, pw_queue_group_run(j->group));
    if (params != NULL && meta != NULL) {
        json_object_set_new(params, "_meta", meta);
    } else {
        json_decref(meta);
    }
    if (params != NULL) {
        pw_server_notify_to(
            s, j->req.sink,
            pw_rpc_notification_new("notifications/progress", params));
    }
    j->next_progress = now + PROGRESS_EVERY;
}

/* True if J has progress to tell: a run of it started, or it waits for
 * the zygote's imports. */
static bool
has_progress(const struct job *j)
{
    return j->token != NULL && (pw_queue_group_elapsed(j->group) >= 0 ||
                                pw_queue_group_warming(j->group));
}

/* Finish J with RESULT (a CallToolResult, stolen) and free it; RUN: its
 * run's typed result, for a sink that takes it (or NULL). */
static void
job_reply(struct pw_server *s, struct job *j, json_t *result,
          const struct pw_sbx_result *run)
{
    if (j->req.sink != NULL && j->req.sink->done != NULL &&
        j->req.batch == NULL) {
        j->req.sink->done(j->req.sink, run, result, j->exec);
        json_decref(result);
        job_free(s, j);
        return;
    }
    if (result == NULL) {
        pw_server_send(s, &j->req,
                       pw_rpc_error_new(j->req.id_raw, PW_RPC_INTERNAL_ERROR,
                                        "tools/call: the result could not "
                                        "be built",
                                        NULL));
    } else {
        if (j->req.stateless) {
            json_object_set_new(result, "resultType", json_string("complete"));
        }
        pw_server_send_reply(s, &j->req,
                             pw_rpc_result_reply(j->req.id_raw, result));
    }
    json_decref(result);
    j->req.batch = NULL; /* released by pw_server_send */
    job_free(s, j);
}

/* Count the layer that stopped a run. */
static void
count_blocked(struct pw_server *s, const struct pw_sbx_result *run)
{
    if (run->blocked == PW_SBX_BLOCKED_SYSCALL) {
        s->stats.blocked_syscall++;
    } else if (run->blocked == PW_SBX_BLOCKED_AUDIT) {
        s->stats.blocked_audit++;
    }
}

/* The event log's record of J's call ended without a run with RESULT (a
 * refusal or a CE after a validator process's check: a short program's
 * is recorded where the call is answered), under J's door and client. */
static void
unrun_event(const struct job *j, json_t *result)
{
    char door[sizeof(j->door)];
    char client[sizeof(j->client)];
    snprintf(door, sizeof(door), "%s", pw_events_door());
    snprintf(client, sizeof(client), "%s", pw_events_client());
    const char *tool, *session, *profile;
    pw_tools_exec_about(j->exec, &tool, &session, &profile);
    pw_events_set_caller(j->door, j->client);
    pw_events_answered(tool, pw_tools_exec_args(j->exec), result);
    pw_events_set_caller(door, client);
}

/* The end of J's call, from the queue's turn: counted (an execute_code:
 * RUN its run's result, or NULL if it did not start) and answered. */
static void
job_done(void *ctx, json_t *result, const struct pw_sbx_result *run)
{
    struct job *j = ctx;
    struct pw_server *s = j->s;
    bool rejected = false;
    bool unrun = pw_tools_exec_unrun(j->exec, &rejected);
    if (unrun && result != NULL) {
        unrun_event(j, result);
    }
    if (rejected) {
        s->stats.blocked_validator++;
    }
    if (pw_tools_exec_runs_one(j->exec) && !unrun) {
        const char *st =
            run != NULL ? pw_sbx_status_name(run->status) : "internal_error";
        if (run != NULL) {
            count_blocked(s, run);
        }
        count_run(s, st, pw_now() - j->submitted);
        if (j->req.sink == NULL) {
            note(s, "run %s finished: %s", j->req.id_raw, st);
        }
    }
    job_reply(s, j, result, run);
    s->last_activity = s->last_answer = pw_now();
}

/* The event log's record of a run of J's (the queue's end of an entry). */
static void
job_watch(void *ctx, const struct pw_run_spec *spec,
          const struct pw_sbx_result *res, const struct pw_error *err)
{
    struct job *j = ctx;
    struct pw_events_run r = {.door = j->door,
                              .client = j->client,
                              .request = j->req.id_raw,
                              .spec = spec,
                              .res = res,
                              .err = err};
    pw_tools_exec_about(j->exec, &r.tool, &r.session, &r.profile);
    pw_events_run(&r);
}

void
pw_server_submit(struct pw_server *s, struct pw_rpc_req *req,
                 struct pw_exec *e, json_t *token)
{
    if (pw_queue_waiting(s->q) + pw_tools_checks_pending(s->tools) >=
        s->max_queued) {
        s->stats.busy++;
        pw_server_send(s, req,
                       pw_rpc_error_new(req->id_raw, PW_RPC_SERVER_BUSY,
                                        "server busy: too many runs queued",
                                        NULL));
        pw_tools_exec_free(e);
        json_decref(token);
        return;
    }
    struct job *j = pw_xcalloc(1, sizeof(*j));
    j->s = s;
    j->req = *req;
    req->id_raw = NULL;
    req->id = NULL;
    j->exec = e;
    j->token = token;
    j->submitted = pw_now();
    j->group = pw_queue_group_new(
        s->q, req->sink != NULL ? req->sink->client : PW_SERVER_STDIO_CLIENT);
    snprintf(j->door, sizeof(j->door), "%s", pw_events_door());
    snprintf(j->client, sizeof(j->client), "%s", pw_events_client());
    pw_queue_group_watch(j->group, job_watch, j);
    j->next = s->jobs;
    s->jobs = j;
    json_t *now = pw_tools_exec_submit(s->tools, e, j->group, job_done, j);
    if (now != NULL) {
        job_reply(s, j, now, NULL);
        return;
    }
    pw_log(PW_LOG_DEBUG, "request %s queued", j->req.id_raw);
}

/* True if a cancellation sent through FROM may reach J. */
static bool
same_owner(const struct job *j, const struct pw_sink *from)
{
    if (j->req.sink == NULL || from == NULL) {
        return j->req.sink == NULL && from == NULL;
    }
    return j->req.sink->owner == from->owner;
}

void
pw_server_cancel(struct pw_server *s, json_t *id, const struct pw_sink *from)
{
    for (struct job *j = s->jobs; j != NULL; j = j->next) {
        if (!json_equal(j->req.id, id) || !same_owner(j, from)) {
            continue;
        }
        bool ran = pw_queue_group_elapsed(j->group) >= 0;
        pw_log(PW_LOG_INFO, "request %s cancelled%s", j->req.id_raw,
               ran ? ": its runs killed" : "");
        note(s, "request %s cancelled", j->req.id_raw);
        if (j->req.batch != NULL) {
            pw_server_batch_release(s, j->req.batch);
        } else if (j->req.sink != NULL) {
            j->req.sink->reply(j->req.sink, NULL);
        }
        job_free(s, j);
        return;
    }
    pw_log(PW_LOG_DEBUG, "cancel: no request in flight with that id");
}

void
pw_server_cancel_sink(struct pw_server *s, const struct pw_sink *sink)
{
    struct job **p = &s->jobs;
    while (*p != NULL) {
        struct job *j = *p;
        if (j->req.sink != sink) {
            p = &j->next;
            continue;
        }
        *p = j->next;
        j->next = NULL;
        pw_log(PW_LOG_INFO, "request %s dropped: its client is gone",
               j->req.id_raw);
        if (j->req.batch != NULL) {
            pw_server_batch_release(s, j->req.batch);
        }
        job_free(s, j);
    }
}

/* Progress for the jobs that have some to tell. */
static void
tick_progress(struct pw_server *s, double now)
{
    for (struct job *j = s->jobs; j != NULL; j = j->next) {
        if (has_progress(j) && now >= j->next_progress) {
            send_progress(s, j, now);
        }
    }
}

/* Fill s->fds; returns the count. */
static int
build_pollfds(struct pw_server *s)
{
    bool backlog = pw_rpc_out_pending(&s->out) > OUTPUT_BACKLOG;
    /* While a line is being parsed, the lines after it wait (in HELD,
     * and in the pipe: stdin is not read meanwhile). */
    bool off = s->eof || backlog || s->has_transport || s->line_job != NULL ||
               s->held != NULL;
    s->fds[0] = (struct pollfd){off ? -1 : 0, POLLIN, 0};
    s->fds[1] =
        (struct pollfd){pw_rpc_out_busy(&s->out) ? s->out.fd : -1, POLLOUT, 0};
    /* The zygotes' answers: spares taken into the pools as they come. */
    struct pw_zygote *z[2];
    size_t nz = pw_tools_zygotes(s->tools, z);
    for (size_t i = 0; i < 2; i++) {
        s->fds[2 + i] =
            (struct pollfd){i < nz ? pw_zygote_fd(z[i]) : -1, POLLIN, 0};
    }
    /* The validator processes' answers: the calls whose check ended go on. */
    pw_tools_vproc_pollfds(s->tools, s->fds + VPROC_FDS);
    /* The fork_session calls' sessions: their answers and hellos. */
    pw_tools_fork_pollfds(s->tools, s->fds + FORK_FDS);
    /* The parse worker's trees, when it has work. */
    s->fds[PARSE_FD] = (struct pollfd){pw_parse_fd(s->parse), POLLIN, 0};
    return LOOP_FDS + pw_queue_pollfds(s->q, s->fds + LOOP_FDS,
                                       pw_queue_pollfds_max(s->q));
}

/* Milliseconds until the next deadline or progress tick; -1: none. */
static int
poll_timeout(const struct pw_server *s, double now)
{
    double next =
        fmin(pw_queue_deadline(s->q), pw_tools_fork_deadline(s->tools));
    for (const struct job *j = s->jobs; j != NULL; j = j->next) {
        if (has_progress(j)) {
            next = fmin(next, j->next_progress);
        }
    }
    if (s->tools->sessions != NULL) {
        next = fmin(next, s->session_tick);
    }
    if (s->events_busy) {
        next = fmin(next, now + PW_EVENTS_TICK_S);
    }
    if (isinf(next)) {
        return -1;
    }
    double ms = ceil((next - now) * 1000);
    return ms < 0 ? 0 : ms > 60000 ? 60000 : (int)ms;
}

/* --- the loop --------------------------------------------------------- */

/* Runs younger than this are short ones a fork of the zygote would
 * delay; older ones do not mind. */
#define REFILL_AFTER_S 0.05

/* A client that sends its next request as soon as it has an answer
 * sends it sooner than this: forking a spare then would delay that
 * request.  Such a client's runs fork their replacements while they work
 * (pw_zygote_refill_on_start).  After a pause, the fork is better left
 * to the next pause: forking while a run works delays its answer when
 * the run is short and the host's caches are cold. */
#define REFILL_QUIET_S 0.002

/* Nothing a fork would delay: no queued request, no young run, no
 * request or answer just now. */
static bool
quiet(const struct pw_server *s)
{
    return pw_queue_queued(s->q) == 0 &&
           pw_now() - s->last_activity >= REFILL_QUIET_S &&
           !pw_queue_young_run(s->q, REFILL_AFTER_S);
}

/* One spare for each zygote's pool that is short; true if one still is. */
static bool
refill_pools(struct pw_zygote **z, size_t n)
{
    bool still = false;
    for (size_t i = 0; i < n; i++) {
        still |= pw_zygote_refill(z[i]);
    }
    return still;
}

static bool
pools_short(struct pw_zygote **z, size_t n)
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        any |= pw_zygote_short(z[i]);
    }
    return any;
}

/* 0 while the pool of spares is short and the server is quiet (refilled
 * then); at most 10 ms while it is short and young runs are in flight, 1
 * ms while it is short after a request or an answer, 5 ms while answered
 * runs' processes are still exiting (reaped when idle); otherwise the
 * next deadline. */
static int
loop_timeout(struct pw_server *s, bool refill)
{
    int ms = poll_timeout(s, pw_now());
    if (refill && quiet(s)) {
        return 0;
    }
    struct pw_zygote *z[2];
    size_t nz = pw_tools_zygotes(s->tools, z);
    int exiting = 0;
    for (size_t i = 0; i < nz; i++) {
        exiting += pw_zygote_reap(z[i], false);
    }
    int cap = refill && pw_queue_running(s->q) > 0 ? 10
              : refill                             ? 1
              : exiting > 0                        ? 5
                                                   : -1;
    return cap >= 0 && (ms < 0 || ms > cap) ? cap : ms;
}

/* SIGHUP is taken only with a transport (token reload): a stdio server
 * keeps its default, ending with its terminal. */
static void
install_signals(bool hup)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop; /* no SA_RESTART: poll returns EINTR */
    sigemptyset(&sa.sa_mask);
    (void)sigaction(SIGTERM, &sa, NULL);
    (void)sigaction(SIGINT, &sa, NULL);
    if (hup) {
        sa.sa_handler = on_hup;
        (void)sigaction(SIGHUP, &sa, NULL);
    }
    sa.sa_handler = SIG_IGN;
    (void)sigaction(SIGPIPE, &sa, NULL);
}

/* A line over the cap gets its -32600 with the line's id when one could
 * be read from its start or end (rpc.h); one of PW_PARSE_MIN bytes or
 * more goes to the parse worker, then to the MCP layer parsed; the
 * others go to the MCP layer at once. */
static void line_work(struct pw_parse_job *pj);
static void line_done(struct pw_parse_job *pj, bool stopping);

static void
take_line(struct pw_server *s, const char *line, size_t len, bool oversized,
          bool in_buf)
{
    if (!oversized) {
        if (s->parse != NULL && len >= PW_PARSE_MIN &&
            s->handler.msg != NULL) {
            struct line_job *j = pw_xcalloc(1, sizeof(*j));
            j->base.work = line_work;
            j->base.done = line_done;
            j->base.owner = PW_SERVER_STDIO_CLIENT;
            j->s = s;
            if (in_buf) { /* the input buffer is taken, not copied */
                j->text = pw_rpc_in_take(&s->in);
                j->off = (size_t)(line - j->text);
            } else {
                j->text = pw_xmalloc(len);
                memcpy(j->text, line, len);
            }
            j->len = len;
            s->line_job = j;
            pw_parse_submit(s->parse, &j->base);
        } else if (s->handler.line != NULL) {
            s->handler.line(s->handler.ctx, line, len, false);
        }
        return;
    }
    char msg[80];
    snprintf(msg, sizeof(msg), "invalid request: message longer than %u bytes",
             PW_RPC_MAX_LINE);
    pw_log(PW_LOG_DEBUG, "reply error %d: %s", PW_RPC_INVALID_REQUEST, msg);
    char *reply = pw_rpc_error_new(len > 0 ? line : NULL,
                                   PW_RPC_INVALID_REQUEST, msg, NULL);
    queue_line(s, reply); /* an ASCII message: never NULL */
    free(reply);
}

/* Lines are handled in their order: while one is being parsed, the
 * lines after it wait for it. */
static void
on_line(void *ctx, const char *line, size_t len, bool oversized)
{
    struct pw_server *s = ctx;
    if (s->line_job == NULL && s->held == NULL) {
        take_line(s, line, len, oversized, true);
        return;
    }
    struct held_line *h = pw_xmalloc(sizeof(*h) + len + 1);
    h->next = NULL;
    h->len = len;
    h->oversized = oversized;
    memcpy(h->text, line, len);
    h->text[len] = '\0';
    if (s->held_tail != NULL && s->held != NULL) {
        s->held_tail->next = h;
    } else {
        s->held = h;
    }
    s->held_tail = h;
}

/* On the worker. */
static void
line_work(struct pw_parse_job *pj)
{
    struct line_job *j = (struct line_job *)pj;
    pw_rpc_msg_parse(&j->msg, j->text + j->off, j->len);
    free(j->text);
    j->text = NULL;
}

/* On the loop: the line parsed goes to the MCP layer, then the lines
 * that waited for it, until one more goes to the worker. */
static void
line_done(struct pw_parse_job *pj, bool stopping)
{
    struct line_job *j = (struct line_job *)pj;
    struct pw_server *s = j->s;
    if (!stopping) {
        s->line_job = NULL;
        s->handler.msg(s->handler.ctx, &j->msg);
    }
    pw_rpc_msg_clear(&j->msg);
    free(j->text);
    free(j);
    while (!stopping && s->line_job == NULL && s->held != NULL) {
        struct held_line *h = s->held;
        s->held = h->next;
        take_line(s, h->text, h->len, h->oversized, false);
        free(h);
    }
}

void
pw_server_activity(struct pw_server *s)
{
    s->last_activity = pw_now();
    /* A client that sends its next request as soon as it has an answer
     * gets its runs' spares forked while the runs work; one that pauses
     * gets them forked in its pauses, where the fork delays nothing (see
     * REFILL_QUIET_S). */
    struct pw_zygote *z[2];
    size_t nz = pw_tools_zygotes(s->tools, z);
    for (size_t i = 0; i < nz; i++) {
        pw_zygote_refill_on_start(z[i], s->last_activity - s->last_answer <
                                            REFILL_QUIET_S);
    }
}

static void
read_input(struct pw_server *s)
{
    pw_server_activity(s);
    int rc = pw_rpc_in_read(&s->in, 0, on_line, s);
    if (rc != 0) {
        if (rc < 0) {
            pw_warn_errno("reading stdin");
        }
        pw_log(PW_LOG_INFO, "stdin closed: shutting down");
        s->eof = true;
    }
}

/* Give queued output up to a second to drain before exiting. */
static void
drain_output(struct pw_server *s)
{
    double until = pw_now() + 1.0;
    while (pw_rpc_out_busy(&s->out) && pw_now() < until) {
        struct pollfd p = {s->out.fd, POLLOUT, 0};
        if (poll(&p, 1, 100) < 0 && errno != EINTR) {
            break;
        }
        pw_rpc_out_flush(&s->out);
    }
}

/* The transport's fds after N of the loop's; updates *TIMEOUT. */
static int
transport_pollfds(struct pw_server *s, int n, int *timeout)
{
    if (!s->has_transport) {
        return n;
    }
    int tmo = *timeout;
    n += s->tr.pollfds(s->tr.ctx, s->fds + n, PW_SERVER_TRANSPORT_FDS, &tmo);
    if (tmo >= 0 && (*timeout < 0 || tmo < *timeout)) {
        *timeout = tmo;
    }
    if (s->draining && (*timeout < 0 || *timeout > DRAIN_TICK_MS)) {
        *timeout = DRAIN_TICK_MS;
    }
    return n;
}

/* One line on stderr, at any log level, of the drain's start or end
 * (WHAT), with what it waits for: runs in flight and queued, requests in
 * all, and sessions open (they end with the server). */
static void
drain_note(const struct pw_server *s, const char *what)
{
    size_t jobs = 0;
    for (const struct job *j = s->jobs; j != NULL; j = j->next) {
        jobs++;
    }
    fprintf(stderr, "pyward: %s (%d runs in flight, %zu queued, %zu requests",
            what, pw_server_running(s), pw_server_queued(s), jobs);
    if (s->tools->sessions != NULL) {
        fprintf(stderr, ", %d sessions open",
                pw_sessions_count(s->tools->sessions));
    }
    fprintf(stderr, ")\n");
}

/* Signals: SIGHUP goes to the transport; the first SIGTERM/SIGINT with a
 * transport starts a drain.  Returns false when the loop must end. */
static bool
handle_signals(struct pw_server *s)
{
    if (hup_signal && s->has_transport) {
        hup_signal = 0;
        s->tr.signal(s->tr.ctx, SIGHUP);
    }
    if (stop_signal && s->has_transport && !s->draining) {
        char what[80];
        snprintf(what, sizeof(what), "signal %d: draining for up to %g s",
                 (int)stop_signal, s->grace);
        drain_note(s, what);
        s->tr.signal(s->tr.ctx, (int)stop_signal);
        s->draining = true;
        s->drain_start = pw_now();
        s->drain_until = s->drain_start + s->grace;
        stop_signal = 0;
    }
    if (s->draining) {
        bool done = s->jobs == NULL && s->tr.idle(s->tr.ctx);
        if (done || pw_now() >= s->drain_until) {
            char what[80];
            snprintf(what, sizeof(what),
                     done ? "drained in %.1f s, every request answered"
                          : "grace over after %.1f s: stopping what is left",
                     pw_now() - s->drain_start);
            drain_note(s, what);
            return false;
        }
        return true;
    }
    return !stop_signal;
}

/* poll() for the loop, without losing a signal that arrives after
 * handle_signals() looked and before the wait begins (the wait would then
 * sleep on, with no timeout when idle): the stop and reload signals are
 * blocked from the last look at their flags until ppoll() lets them in,
 * atomically with the wait. */
static int
wait_events(struct pw_server *s, int n, int timeout)
{
    sigset_t stops, old;
    sigemptyset(&stops);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGHUP);
    if (sigprocmask(SIG_BLOCK, &stops, &old) < 0) {
        return poll(s->fds, (nfds_t)n, timeout);
    }
    if (stop_signal || hup_signal) {
        timeout = 0; /* arrived since the look: go round at once */
    }
    struct timespec ts = {timeout / 1000, (long)(timeout % 1000) * 1000000};
    int rc = ppoll(s->fds, (nfds_t)n, timeout < 0 ? NULL : &ts, &old);
    int saved = errno;
    (void)sigprocmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return rc;
}

int
pw_server_run(struct pw_server *s)
{
    bool refill = s->tools->zygote != NULL;
    struct pw_zygote *z[2];
    size_t nz = pw_tools_zygotes(s->tools, z);
    /* At the end of stdin, the lines read are handled first. */
    while (handle_signals(s) &&
           !(s->eof && s->line_job == NULL && s->held == NULL)) {
        pw_queue_start(s->q);
        int n0 = build_pollfds(s);
        int timeout = loop_timeout(s, refill);
        int n = transport_pollfds(s, n0, &timeout);
        int rc = wait_events(s, n, timeout);
        if (rc < 0 && errno != EINTR) {
            pw_warn_errno("poll");
            break;
        }
        /* Idle (nothing to read or write, no young run in flight): one
         * spare for the pool of the sandbox, then look again.  Forking
         * takes longer than a run on a prepared spare, so it is never done
         * on a short run's way. */
        bool idle = rc == 0 && quiet(s);
        refill = idle && refill ? refill_pools(z, nz) : pools_short(z, nz);
        for (size_t i = 0; rc > 0 && i < nz; i++) {
            if (s->fds[2 + i].revents != 0) {
                pw_zygote_collect(z[i]);
            }
        }
        if (rc > 0) {
            pw_tools_vproc_step(s->tools, s->fds + VPROC_FDS);
        }
        /* Before new requests are read: the revents are of the forks
         * under way when the poll began. */
        pw_tools_fork_step(s->tools, s->fds + FORK_FDS);
        if (rc > 0 && s->fds[PARSE_FD].revents != 0) {
            pw_parse_collect(s->parse);
        }
        if (rc > 0 && s->fds[0].revents != 0) {
            read_input(s);
        }
        if (rc > 0 && s->fds[1].revents != 0) {
            pw_rpc_out_flush(&s->out);
        }
        pw_queue_step(s->q, s->fds + LOOP_FDS, n0 - LOOP_FDS);
        tick_progress(s, pw_now());
        s->events_busy = pw_events_tick(pw_now());
        if (s->has_transport) {
            s->tr.dispatch(s->tr.ctx, s->fds + n0, rc < 0 ? 0 : n - n0);
        }
        if (s->tools->sessions != NULL) {
            s->session_tick = pw_sessions_tick(s->tools->sessions, pw_now());
        }
        if (s->out.broken) {
            pw_log(PW_LOG_INFO, "client gone: shutting down");
            break;
        }
    }
    if (stop_signal) {
        pw_log(PW_LOG_INFO, "signal %d: shutting down", (int)stop_signal);
    }
    drop_jobs(s);
    drain_output(s);
    return 0;
}
