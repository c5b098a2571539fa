/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * server.h - the event loop of `pyward serve`: one poll() over stdin, the
 * protocol fd's pending output and every run's fds; runs in flight up to a
 * limit, the rest queued in order; replies matched to their ids.
 */
#pragma once

#include <jansson.h>

#include "server/rpc.h"
#include "server/tools.h"

struct pw_server;
struct pw_batch;

/* Who gets a reply: the id's raw text and value, and the batch (if any)
 * the reply belongs to. */
struct pw_rpc_req {
    char *id_raw;           /* owned JSON text */
    json_t *id;             /* owned */
    struct pw_batch *batch; /* borrowed, or NULL */
    bool stateless;         /* protocol 2026-07-28: results carry resultType */
};

/* The protocol layer above the loop (the MCP layer, mcp.c): LINE gets
 * each input line under the cap (oversized ones the loop answers
 * itself), NOTE a line of news for the client (a run cancelled or
 * finished).  Either may be NULL. */
struct pw_server_handler {
    pw_rpc_line_fn line;
    void (*note)(void *ctx, const char *text);
    void *ctx;
};

/* Returns an owned server writing to PROTO_FD, reading fd 0.  TOOLS is
 * borrowed.  Input lines are dropped until a handler is set. */
struct pw_server *pw_server_new(int proto_fd, struct pw_tools *tools,
                                int max_concurrency);
void pw_server_free(struct pw_server *s);
/* Hand input lines and news to H (copied). */
void pw_server_set_handler(struct pw_server *s,
                           const struct pw_server_handler *h);
/* Serve until stdin closes or SIGTERM/SIGINT; kills every child left.
 * Returns the exit status. */
int pw_server_run(struct pw_server *s);

/* Reply to REQ with LINE (owned; NULL: it could not be built, an internal
 * error is sent instead). */
void pw_server_send(struct pw_server *s, const struct pw_rpc_req *req,
                    char *line);
/* Queue a notification LINE (owned; NULL is ignored). */
void pw_server_notify(struct pw_server *s, char *line);
/* Queue a run.  REQ's strings, E and TOKEN (may be NULL) are taken. */
void pw_server_submit(struct pw_server *s, struct pw_rpc_req *req,
                      struct pw_exec *e, json_t *token);
/* Cancel the run or queued request whose id equals ID: its child is
 * killed and no reply is sent. */
void pw_server_cancel(struct pw_server *s, json_t *id);

/* A batch that expects up to N replies; the caller holds it until
 * pw_server_batch_release.  Elements with no reply call
 * pw_server_batch_release too. */
struct pw_batch *pw_server_batch_new(struct pw_server *s, size_t n);
void pw_server_batch_release(struct pw_server *s, struct pw_batch *b);

void pw_rpc_req_clear(struct pw_rpc_req *req);
