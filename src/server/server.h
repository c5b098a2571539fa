/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * server.h - the event loop of `pyward serve`: one poll() over stdin, the
 * protocol fd's pending output and every run's fds; every run an entry
 * of the run queue (grade/queue.h: runs in flight up to a limit, the
 * next free slot to the client served least recently); replies matched
 * to their ids.
 */
#pragma once

#include <jansson.h>

#include "sandbox/sandbox.h"
#include "server/rpc.h"
#include "server/tools.h"

struct pw_server;
struct pw_batch;
struct pw_parse;
struct pollfd;

/* Where the replies and notifications of a request go when they do not
 * go to the protocol fd: one HTTP exchange.  REPLY gets the reply (taken:
 * segments read as they are sent, core/reply.h), or NULL when none will
 * come (the request was cancelled, or
 * a batch held only notifications); NOTIFY a notification about it (a
 * run's progress).  OWNER: requests may be cancelled only by a message
 * from a sink with the same owner (the same credentials).  CLIENT: whose
 * runs these are, for the queue's turns (the token, else the address). */
struct pw_reply;
struct pw_sink {
    void (*reply)(struct pw_sink *k, struct pw_reply *r);
    void (*notify)(struct pw_sink *k, const char *line);
    /* NULL, or the end of a call the sink submitted, typed, instead of
     * REPLY with its line (a door that makes its own answer: Jobe): RUN
     * the run's result (NULL when no run ended: it did not start, or
     * the call was not one run), RESULT its CallToolResult (borrowed,
     * NULL if it could not be built), CALL the call (borrowed: what
     * ended it without a run, pw_tools_exec_refusal).  A request refused
     * before it was queued (busy) still gets REPLY. */
    void (*done)(struct pw_sink *k, const struct pw_sbx_result *run,
                 const json_t *result, const struct pw_exec *call);
    unsigned long long owner;
    unsigned long long client;
};

/* The queue's client key of the stdio connection's requests. */
#define PW_SERVER_STDIO_CLIENT 0ULL

/* Who gets a reply: the id's raw text and value, and the batch (if any)
 * the reply belongs to. */
struct pw_rpc_req {
    char *id_raw;           /* owned JSON text */
    json_t *id;             /* owned */
    struct pw_batch *batch; /* borrowed, or NULL */
    struct pw_sink *sink;   /* borrowed; NULL: the protocol fd */
    bool stateless;         /* protocol 2026-07-28: results carry resultType */
};

/* The protocol layer above the loop (the MCP layer, mcp.c): LINE gets
 * each input line under the cap (oversized ones the loop answers
 * itself), NOTE a line of news for the client (a run cancelled or
 * finished).  Either may be NULL. */
struct pw_server_handler {
    pw_rpc_line_fn line;
    /* A line of PW_PARSE_MIN bytes or more, parsed off the loop (MSG
     * borrowed); NULL: such lines go to LINE too. */
    void (*msg)(void *ctx, const struct pw_rpc_msg *msg);
    void (*note)(void *ctx, const char *text);
    void *ctx;
};

/* A transport other than stdio (HTTP, http.c): the loop polls its fds
 * instead of stdin.  POLLFDS fills up to MAX pollfds and may lower
 * *TIMEOUT_MS (-1: none); DISPATCH is called after each poll with them;
 * SIGNAL gets SIGHUP (reload) and SIGTERM/SIGINT (stop accepting: the
 * loop then drains); IDLE is true when no exchange waits for an
 * answer. */
struct pw_server_transport {
    int (*pollfds)(void *ctx, struct pollfd *fds, int max, int *timeout_ms);
    void (*dispatch)(void *ctx, const struct pollfd *fds, int n);
    void (*signal)(void *ctx, int sig);
    bool (*idle)(void *ctx);
    void *ctx;
};

/* Fds a transport may poll. */
#define PW_SERVER_TRANSPORT_FDS 4

/* What the server counts for /metrics. */
#define PW_STATS_STATUSES 16
#define PW_STATS_BUCKETS  12
extern const double pw_stats_bounds[PW_STATS_BUCKETS]; /* seconds */

struct pw_server_stats {
    struct {
        char name[24];
        unsigned long long n;
    } status[PW_STATS_STATUSES]; /* runs answered, by status */
    int nstatus;
    unsigned long long latency[PW_STATS_BUCKETS]; /* cumulative, le bound */
    unsigned long long latency_count;
    double latency_sum;                 /* seconds from submit to answer */
    unsigned long long blocked_syscall; /* refused system calls */
    unsigned long long blocked_audit;   /* audit events reported */
    unsigned long long blocked_validator;
    unsigned long long busy; /* runs refused: queue full */
};

/* Returns an owned server writing to PROTO_FD, reading fd 0.  TOOLS is
 * borrowed.  Input lines are dropped until a handler is set. */
struct pw_server *pw_server_new(int proto_fd, struct pw_tools *tools,
                                int max_concurrency);
void pw_server_free(struct pw_server *s);
/* The parse worker (owned by S; NULL: none could be started). */
struct pw_parse *pw_server_parser(struct pw_server *s);
/* Hand input lines and news to H (copied). */
void pw_server_set_handler(struct pw_server *s,
                           const struct pw_server_handler *h);
/* Serve through T (copied) instead of stdin; SIGTERM then drains for up
 * to GRACE seconds (runs in flight finish, nothing new is accepted). */
void pw_server_set_transport(struct pw_server *s,
                             const struct pw_server_transport *t,
                             double grace);
/* Refuse requests past MAX whose runs wait for a slot (the default
 * 1024). */
void pw_server_set_max_queued(struct pw_server *s, int max);
/* A request came in (from a transport): spares are forked as for stdin. */
void pw_server_activity(struct pw_server *s);
const struct pw_server_stats *pw_server_stats(const struct pw_server *s);
int pw_server_running(const struct pw_server *s);
size_t pw_server_queued(const struct pw_server *s);
/* Count a run the validator refused. */
void pw_server_count_rejected(struct pw_server *s);
/* Serve until stdin closes or SIGTERM/SIGINT; kills every child left.
 * Returns the exit status. */
int pw_server_run(struct pw_server *s);

/* Reply to REQ with LINE (owned; NULL: it could not be built, an internal
 * error is sent instead). */
void pw_server_send(struct pw_server *s, const struct pw_rpc_req *req,
                    char *line);
/* The same with the reply R (taken; NULL as for LINE). */
void pw_server_send_reply(struct pw_server *s, const struct pw_rpc_req *req,
                          struct pw_reply *r);
/* Queue a notification LINE (owned; NULL is ignored). */
void pw_server_notify(struct pw_server *s, char *line);
/* The same toward SINK (NULL: the protocol fd). */
void pw_server_notify_to(struct pw_server *s, struct pw_sink *sink,
                         char *line);
/* Queue the runs of call E (pw_tools_exec_submit), the reply to REQ
 * sent when its last run ends; refused (busy) past the queued limit.
 * REQ's strings, E and TOKEN (may be NULL) are taken. */
void pw_server_submit(struct pw_server *s, struct pw_rpc_req *req,
                      struct pw_exec *e, json_t *token);
/* Cancel the run or queued request whose id equals ID, sent through
 * FROM (NULL: stdio) or a sink of the same owner: its child is killed
 * and no reply is sent (a sink's REPLY gets NULL). */
void pw_server_cancel(struct pw_server *s, json_t *id,
                      const struct pw_sink *from);
/* Drop every run and queued request of SINK (its client is gone); SINK
 * gets no call. */
void pw_server_cancel_sink(struct pw_server *s, const struct pw_sink *sink);

/* A batch that expects up to N replies, answered through SINK (NULL: the
 * protocol fd); the caller holds it until pw_server_batch_release.
 * Elements with no reply call pw_server_batch_release too. */
struct pw_batch *pw_server_batch_new(struct pw_server *s, size_t n,
                                     struct pw_sink *sink);
void pw_server_batch_release(struct pw_server *s, struct pw_batch *b);

void pw_rpc_req_clear(struct pw_rpc_req *req);
