/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sessions.h - the server's sessions (sessions.c): handles, owners,
 * limits, idle and lifetime expiry, and what became of ended ones.
 *
 * A handle is "ps-INSTANCE-SECRET": INSTANCE names the server process
 * (--instance-id, else random per process) so that a router in front of
 * several servers can send a handle to the one that holds it; SECRET is
 * 128 bits from getrandom(2), in hex.  A session belongs to its owner: a
 * string the transport gives with each call (on stdio, the connection:
 * PW_OWNER_STDIO; an HTTP transport gives the authenticated token's
 * identity).  Another owner's handle is answered exactly as an unknown
 * one.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "core/profiles.h"
#include "core/pyward.h"
#include "sandbox/session/session.h"

#define PW_OWNER_STDIO    "stdio"
#define PW_SESSION_ID_MAX 96

struct pw_session_limits {
    double ttl_s;      /* idle time-to-live, default and most */
    double lifetime_s; /* the most a session lives */
    int max_total;     /* sessions on this server; 0: none allowed */
    int max_per_owner;
};

/* One live session (owned by the registry). */
struct pw_session {
    char id[PW_SESSION_ID_MAX];
    char *owner;
    struct pw_sbx_session *sbx; /* owned */
    pw_profile_mask mask;       /* its profiles */
    double timeout_s;           /* a call's default timeout */
    long long memory;           /* its memory limit */
    double ttl_s;
    double created, last_used; /* pw_now() */
    unsigned long calls;
};

struct pw_sessions;

/* Why a session ended, as counted. */
enum pw_session_end {
    PW_SESSION_CLOSED,   /* close_session */
    PW_SESSION_IDLE,     /* idle past its ttl */
    PW_SESSION_LIFETIME, /* past the longest a session lives */
    PW_SESSION_DIED,     /* its process ended (a limit, a crash) */
    PW_SESSION_STOPPED,  /* the server stopped */
    PW_SESSION_END_N
};

/* Sessions made and ended since the server started. */
struct pw_sessions_stats {
    unsigned long long created;
    unsigned long long ended[PW_SESSION_END_N];
};

/* INSTANCE: letters and digits, or NULL for a random one. */
struct pw_sessions *pw_sessions_new(const struct pw_session_limits *lim,
                                    const char *instance,
                                    struct pw_error *err);
/* Every session ended (processes killed). */
void pw_sessions_free(struct pw_sessions *ss);
const struct pw_session_limits *
pw_sessions_limits(const struct pw_sessions *ss);
const char *pw_sessions_instance(const struct pw_sessions *ss);

/* 0 if OWNER may create one more session, else -1 with ERR. */
int pw_sessions_room(const struct pw_sessions *ss, const char *owner,
                     struct pw_error *err);
/* Register SBX (stolen) for OWNER; returns the record (borrowed). */
struct pw_session *pw_sessions_add(struct pw_sessions *ss, const char *owner,
                                   struct pw_sbx_session *sbx);
/* OWNER's live session ID (borrowed), or NULL with ERR: unknown (also
 * another owner's), ended (and why), expired, closed. */
struct pw_session *pw_sessions_get(struct pw_sessions *ss, const char *owner,
                                   const char *id, struct pw_error *err);
/* Close OWNER's session ID.  0, or -1 with ERR as pw_sessions_get. */
int pw_sessions_close(struct pw_sessions *ss, const char *owner,
                      const char *id, struct pw_error *err);
/* New reference: OWNER's sessions. */
json_t *pw_sessions_list(struct pw_sessions *ss, const char *owner);
/* End the sessions past their idle TTL or lifetime, or whose process
 * died; returns the next time (pw_now()) this must be called, or
 * INFINITY. */
double pw_sessions_tick(struct pw_sessions *ss, double now);
/* Live sessions (all owners). */
int pw_sessions_count(const struct pw_sessions *ss);
/* The counts since the start (borrowed). */
const struct pw_sessions_stats *
pw_sessions_stats(const struct pw_sessions *ss);
/* END's name, for a metric's label: "closed", "idle", ... */
const char *pw_session_end_name(enum pw_session_end end);
