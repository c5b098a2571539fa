/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * events.h - the security event log of `pyward serve`: one structured
 * record per run (which door, which client, what ran under which limits,
 * how it ended, what was blocked) and one per refusal or anomaly (the
 * validator's, the runtime layers', the limits', the HTTP listener's, the
 * Jobe keys', the sessions'), as JSON lines on stderr, a file or an fd,
 * or as journald fields (doc/SECURITY.md, "Security events").
 *
 * The writer never blocks the loop: records wait in a bounded buffer
 * written as far as the fd takes it (each turn of the loop writes more);
 * a record that does not fit is dropped and counted, and a line says how
 * many once there is room again.  Refusals are rate-limited per client
 * (a burst, then a steady rate); the ones past it are counted and
 * summarized, a line per client and second at most.
 *
 * One log per process: the state is the module's own.  Counters per
 * client (runs, refusals by layer, time used) feed /metrics whether the
 * log is on or off.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/pyward.h"
#include "core/util.h"
#include "grade/queue.h"
#include "sandbox/sandbox.h"

/* Where the records go, from --event-log's SPEC: "stderr", "journal"
 * (journald's native socket; "journal:PATH" another socket speaking its
 * protocol), "off", "fd:N", or a file name (appended to); NULL: the journal
 * when $JOURNAL_STREAM says stderr is the journal, else stderr.  LOG_CODE: the
 * run records carry the code itself. 0, or -1 with ERR (a file that cannot be
 * opened, a bad fd). */
int pw_events_open(const char *spec, bool log_code, struct pw_error *err);
/* Write what is left (waiting up to a second for a slow reader), the
 * pending summaries included, and close. */
void pw_events_close(void);
/* Where SPEC would send the records, in words, into BUF (doctor). */
void pw_events_describe(const char *spec, char *buf, size_t len);
/* Where the open log writes (a static string's or the module's). */
const char *pw_events_where(void);

/* One turn of the loop: write what waits, summarize what was
 * suppressed a second ago.  True if something still waits (the loop
 * comes back within PW_EVENTS_TICK_S). */
bool pw_events_tick(double now);
#define PW_EVENTS_TICK_S 0.1

/* The door and client whose request is being handled now (the HTTP
 * transport sets them for each exchange; stdio is "stdio", "stdio").
 * Copied. */
void pw_events_set_caller(const char *door, const char *client);
const char *pw_events_door(void);
const char *pw_events_client(void);

/* One run's record, from the run queue's end of an entry. */
struct pw_events_run {
    const char *door;    /* "stdio", "http", "jobe" */
    const char *client;  /* "stdio", "token:NAME", "addr:ADDRESS", ... */
    const char *tool;    /* "execute_code", "grade_code", ... */
    const char *request; /* the JSON-RPC id's text, or NULL */
    const char *session; /* the session's handle, or NULL */
    const char *profile; /* the profiles asked for, or NULL */
    const struct pw_run_spec *spec;  /* borrowed */
    const struct pw_sbx_result *res; /* NULL: the run did not start */
    const struct pw_error *err;      /* why (RES NULL) */
};
void pw_events_run(const struct pw_events_run *r);

/* A refusal or an anomaly of LAYER ("validator", "auth", "origin",
 * "host", "jobe_key", "session", ...) for CLIENT at DOOR, of run RUN_ID
 * (or NULL), NAME what was refused; DETAIL (stolen, may be NULL): more
 * fields.  Rate-limited per client. */
void pw_events_refusal(const char *door, const char *client,
                       const char *run_id, const char *layer, const char *name,
                       json_t *detail);
/* The same for the current caller. */
void pw_events_refused(const char *layer, const char *name, json_t *detail);
/* A call of TOOL (ARGS borrowed) answered before any run with RESULT (a
 * CallToolResult, borrowed): a validator rejection is recorded (its
 * codes, the code's digest), for the current caller. */
void pw_events_answered(const char *tool, json_t *args, json_t *result);

/* The per-client counters as Prometheus text, appended to B. */
void pw_events_metrics(struct pw_buf *b);

/* At most this many clients get counters and rate limits of their own;
 * the others share the client "_other". */
#define PW_EVENTS_CLIENTS_MAX 64
/* A client's refusals: this many at once, then this many a second. */
#define PW_EVENTS_BURST 50
#define PW_EVENTS_RATE  10
/* --log-code: the code's first this many bytes (its digest is the whole
 * code's). */
#define PW_EVENTS_CODE_MAX (64u << 10)
/* The records waiting for a slow reader, in bytes. */
#define PW_EVENTS_BUFFER (1u << 20)
