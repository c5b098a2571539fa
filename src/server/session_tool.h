/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * session_tool.h - the MCP tools of sessions (session_tool.c):
 * create_session, close_session, list_sessions, and execute_code's
 * session_id.  The caller is T->owner (set by the transport for each
 * request: struct pw_tools).
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "core/profiles.h"
#include "core/util.h"
#include "grade/queue.h"
#include "sandbox/sandbox.h"
#include "server/conf.h"
#include "server/tool_def.h"

struct pw_sessions;

/* What the session tools need of the server (all borrowed). */
struct pw_session_ctx {
    const struct pw_conf *cfg;
    const struct pw_profiles *profiles;
    pw_profile_mask enabled;
    struct pw_zygote *zygote; /* NULL: unavailable */
    const char *zygote_error; /* why */
    struct pw_sessions *sessions;
    const char *owner; /* the caller (tools.h) */
};

/* True if NAME is one of the session tools. */
bool pw_session_tool_exists(const char *name);
/* Append the session tools' tools/list entries to LIST.  0 or -1. */
int pw_session_tools_list(json_t *list);
/* A create_session in flight (its first call queued). */
struct pw_session_start;
/* The end of a create_session: RESULT its CallToolResult (stolen; NULL
 * if it could not be built).  Called from the queue's turn. */
typedef void (*pw_session_done_fn)(void *ctx, json_t *result);
/* Check create_session's ARGS and the caller's room: an owned start,
 * ready to queue; or NULL with *RESULT (a refusal the caller reads) or
 * with ERR (PW_ERR_USAGE: malformed arguments).  T is copied, its
 * pointers borrowed until the start is freed. */
struct pw_session_start *pw_session_start_new(const struct pw_session_ctx *t,
                                              json_t *args, json_t **result,
                                              struct pw_error *err);
/* Queue the session's first call in G; DONE(CTX, ...) with the
 * created_session result once it has reported. */
void pw_session_start_submit(struct pw_session_start *ss,
                             struct pw_queue_group *g, pw_session_done_fn done,
                             void *ctx);
/* The first call's time limit, seconds (for progress). */
double pw_session_start_timeout(const struct pw_session_start *ss);
/* Free SS (a session started and not registered is ended). */
void pw_session_start_free(struct pw_session_start *ss);

/* A fork_session under way: the session's copy made as the server's
 * loop steps it (sandbox/session/fork.h), the loop serving the others
 * meanwhile. */
struct pw_session_fork;
struct pollfd;
/* Check fork_session's ARGS and the caller's room and start the copy:
 * an owned fork; or NULL with *RESULT (a refusal the caller reads) or
 * with ERR (PW_ERR_USAGE: malformed arguments).  T's sessions are
 * borrowed until the fork is over; its owner is copied. */
struct pw_session_fork *pw_session_fork_start(const struct pw_session_ctx *t,
                                              json_t *args, json_t **result,
                                              struct pw_error *err);
/* Up to 3 pollfds into FDS; returns how many. */
int pw_session_fork_pollfds(const struct pw_session_fork *sf,
                            struct pollfd *fds);
/* Monotonic time by which pw_session_fork_step must be called. */
double pw_session_fork_deadline(const struct pw_session_fork *sf);
/* Step SF with the revents of FDS (N, as filled).  True when it is over
 * (SF freed): if WANTED, *RESULT is the fork_session CallToolResult (the
 * copy registered; NULL if it could not be built); otherwise the copy is
 * closed (its caller is gone). */
bool pw_session_fork_step(struct pw_session_fork *sf, const struct pollfd *fds,
                          int n, bool wanted, json_t **result);

/* A read_file or write_file of a file over PW_SESSION_FILE_FAST bytes,
 * done a bounded step (PW_SESSION_FILE_STEP bytes) at a time as the
 * server's loop turns: a read checks the text is UTF-8 and answers with
 * the file kept open as a blob (blob.h: text escaped, or base64, as the
 * reply is sent); a write decodes and writes into a temporary file
 * renamed over the path at its end. */
#define PW_SESSION_FILE_FAST (64u * 1024)
#define PW_SESSION_FILE_STEP (256u * 1024)
struct pw_session_file;
/* Start tool NAME (read_file, write_file) with ARGS: an owned call for
 * pw_session_file_step; or NULL with *RESULT (answered at once: a small
 * file, a refusal), or with ERR (PW_ERR_USAGE: malformed arguments).
 * T's sessions are borrowed until the call is freed. */
struct pw_session_file *pw_session_file_start(const struct pw_session_ctx *t,
                                              const char *name, json_t *args,
                                              json_t **result,
                                              struct pw_error *err);
/* One step of SF.  True when it is over: *RESULT its CallToolResult (a
 * new reference; its blob held by SF until it is freed), or NULL with
 * ERR (PW_ERR_USAGE: malformed arguments, such as base64 that is not). */
bool pw_session_file_step(struct pw_session_file *sf, json_t **result,
                          struct pw_error *err);
/* The tool SF is ("read_file" or "write_file"). */
const char *pw_session_file_tool(const struct pw_session_file *sf);
/* Free SF (NULL ignored): its fds closed, a temporary file removed. */
void pw_session_file_free(struct pw_session_file *sf);

/* Run session tool NAME (fork_session, close_session, list_sessions):
 * 0 with *RESULT (a CallToolResult; isError for a
 * handle that is unknown, ended or another owner's, or a limit), or -1
 * with ERR (PW_ERR_USAGE: malformed arguments). */
int pw_session_tool_call(const struct pw_session_ctx *t, const char *name,
                         json_t *args, json_t **result, struct pw_error *err);

/* execute_code with ID: refuse the arguments a session fixes at its
 * creation (ARGS: profile, allowed_imports, memory_limit) and find
 * the caller's session.  Sets *MASK to its profiles and, unless TIMEOUT_GIVEN,
 * *TIMEOUT to its calls' default.  0; or -1 with *RESULT a tool error
 * (the session), or with ERR (the arguments). */
int pw_session_exec_check(const struct pw_session_ctx *t, const char *id,
                          json_t *args, pw_profile_mask *mask, double *timeout,
                          json_t **result, struct pw_error *err);
/* Start REQ as the next call of the caller's session ID: an owned run, or
 * NULL with ERR (for the caller to say as a tool error). */
struct pw_sbx_run *pw_session_exec_start(const struct pw_session_ctx *t,
                                         const char *id,
                                         const struct pw_sbx_request *req,
                                         struct pw_error *err);
/* A finished call's result R (execute_code's fields): its session ID,
 * and whether the call ended the session (said in TEXT too). */
void pw_session_exec_note(json_t *r, const char *id, struct pw_buf *text);
/* New reference: a tool error result saying MESSAGE. */
json_t *pw_session_tool_error(const char *message);
