/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sessions.c - the registry of live sessions and the record of ended
 * ones (what their owner is told on the next use of the handle).
 *
 * Defines pw_sessions_*.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/log.h"
#include "core/util.h"
#include "server/sessions.h"
#include "server/events.h"

#define ENDED_KEPT 256 /* ended handles remembered, oldest dropped */

struct ended {
    char id[PW_SESSION_ID_MAX];
    char *owner;
    char why[200];
};

struct pw_sessions {
    struct pw_session_limits lim;
    char instance[40];
    struct pw_session **v;
    int n;
    struct ended gone[ENDED_KEPT];
    size_t ngone; /* total ever; slot ngone % ENDED_KEPT is next */
    struct pw_sessions_stats stats;
};

static int
random_bytes(unsigned char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom(buf + got, n - got, 0);
        if (k < 0) {
            return -1;
        }
        got += (size_t)k;
    }
    return 0;
}

static void
hex(const unsigned char *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    }
}

static bool
instance_ok(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        if (!isalnum((unsigned char)s[i])) {
            return false;
        }
    }
    return n > 0 && n <= 32;
}

struct pw_sessions *
pw_sessions_new(const struct pw_session_limits *lim, const char *instance,
                struct pw_error *err)
{
    unsigned char tag[4];
    if (instance != NULL && !instance_ok(instance)) {
        pw_fail(err, PW_ERR_USAGE,
                "--instance-id: 1 to 32 letters and digits, not '%s'",
                instance);
        return NULL;
    }
    if (instance == NULL && random_bytes(tag, sizeof(tag)) < 0) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "getrandom");
        return NULL;
    }
    struct pw_sessions *ss = pw_xcalloc(1, sizeof(*ss));
    ss->lim = *lim;
    if (instance != NULL) {
        snprintf(ss->instance, sizeof(ss->instance), "%s", instance);
    } else {
        hex(tag, sizeof(tag), ss->instance);
    }
    return ss;
}

/* Remember why ID of OWNER ended, for its owner's next use of it. */
static void
remember(struct pw_sessions *ss, const struct pw_session *s, const char *why)
{
    struct ended *e = &ss->gone[ss->ngone++ % ENDED_KEPT];
    free(e->owner);
    snprintf(e->id, sizeof(e->id), "%s", s->id);
    e->owner = pw_xstrdup(s->owner);
    snprintf(e->why, sizeof(e->why), "%s", why);
}

/* End session I (its process killed) and forget it, saying WHY; END is
 * counted. */
static void
drop(struct pw_sessions *ss, int i, enum pw_session_end end, const char *why)
{
    struct pw_session *s = ss->v[i];
    ss->stats.ended[end]++;
    remember(ss, s, why);
    pw_log(PW_LOG_INFO, "session %.*s... ended: %s", 12, s->id, why);
    pw_sbx_session_free(s->sbx);
    free(s->owner);
    free(s);
    ss->v[i] = ss->v[--ss->n];
}

void
pw_sessions_free(struct pw_sessions *ss)
{
    if (ss == NULL) {
        return;
    }
    while (ss->n > 0) {
        drop(ss, ss->n - 1, PW_SESSION_STOPPED, "the server stopped");
    }
    for (size_t i = 0; i < ENDED_KEPT; i++) {
        free(ss->gone[i].owner);
    }
    free(ss->v);
    free(ss);
}

const struct pw_session_limits *
pw_sessions_limits(const struct pw_sessions *ss)
{
    return &ss->lim;
}

const char *
pw_sessions_instance(const struct pw_sessions *ss)
{
    return ss->instance;
}

int
pw_sessions_count(const struct pw_sessions *ss)
{
    return ss->n;
}

const struct pw_sessions_stats *
pw_sessions_stats(const struct pw_sessions *ss)
{
    return &ss->stats;
}

const char *
pw_session_end_name(enum pw_session_end end)
{
    static const char *const names[PW_SESSION_END_N] = {
        [PW_SESSION_CLOSED] = "closed",     [PW_SESSION_IDLE] = "idle",
        [PW_SESSION_LIFETIME] = "lifetime", [PW_SESSION_DIED] = "died",
        [PW_SESSION_STOPPED] = "stopped",
    };
    return end < PW_SESSION_END_N ? names[end] : "?";
}

static int
owned_by(const struct pw_sessions *ss, const char *owner)
{
    int k = 0;
    for (int i = 0; i < ss->n; i++) {
        k += strcmp(ss->v[i]->owner, owner) == 0;
    }
    return k;
}

int
pw_sessions_room(const struct pw_sessions *ss, const char *owner,
                 struct pw_error *err)
{
    if (ss->lim.max_total <= 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "sessions are disabled on this server");
    }
    if (owned_by(ss, owner) >= ss->lim.max_per_owner) {
        return pw_fail(err, PW_ERR_USAGE,
                       "too many sessions: %d open, the most per client; "
                       "close one (close_session) first",
                       ss->lim.max_per_owner);
    }
    if (ss->n >= ss->lim.max_total) {
        return pw_fail(err, PW_ERR_USAGE,
                       "too many sessions on this server (%d); try again "
                       "later",
                       ss->lim.max_total);
    }
    return 0;
}

struct pw_session *
pw_sessions_add(struct pw_sessions *ss, const char *owner,
                struct pw_sbx_session *sbx)
{
    unsigned char secret[16];
    char hx[2 * sizeof(secret) + 1];
    if (random_bytes(secret, sizeof(secret)) < 0) {
        pw_sbx_session_free(sbx);
        return NULL;
    }
    hex(secret, sizeof(secret), hx);
    struct pw_session *s = pw_xcalloc(1, sizeof(*s));
    snprintf(s->id, sizeof(s->id), "ps-%s-%s", ss->instance, hx);
    s->owner = pw_xstrdup(owner);
    s->sbx = sbx;
    s->created = s->last_used = pw_now();
    s->ttl_s = ss->lim.ttl_s;
    ss->v =
        pw_xrealloc(ss->v, (size_t)(ss->n + 1) * sizeof(struct pw_session *));
    ss->v[ss->n++] = s;
    ss->stats.created++;
    return s;
}

/* Equal strings, in a time that does not depend on where they differ. */
static bool
same_id(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned char d = la != lb;
    for (size_t i = 0; i < la && i < lb; i++) {
        d |= (unsigned char)(a[i] ^ b[i]);
    }
    return d == 0;
}

static int
find(const struct pw_sessions *ss, const char *owner, const char *id)
{
    for (int i = 0; i < ss->n; i++) {
        if (same_id(ss->v[i]->id, id) && strcmp(ss->v[i]->owner, owner) == 0) {
            return i;
        }
    }
    return -1;
}

/* True if ID is a live session of another owner than OWNER's. */
static bool
someone_elses(const struct pw_sessions *ss, const char *owner, const char *id)
{
    for (int i = 0; i < ss->n; i++) {
        if (same_id(ss->v[i]->id, id) && strcmp(ss->v[i]->owner, owner) != 0) {
            return true;
        }
    }
    return false;
}

/* The error for ID, not a live session of OWNER (another owner's handle
 * tried is a security event). */
static int
not_live(const struct pw_sessions *ss, const char *owner, const char *id,
         struct pw_error *err)
{
    if (someone_elses(ss, owner, id)) {
        pw_events_refused("session", "another client's session",
                          json_pack("{s:s}", "session", id));
    }
    size_t kept = ss->ngone < ENDED_KEPT ? ss->ngone : ENDED_KEPT;
    for (size_t i = 0; i < kept; i++) {
        const struct ended *e = &ss->gone[i];
        if (same_id(e->id, id) && strcmp(e->owner, owner) == 0) {
            return pw_fail(err, PW_ERR_USAGE, "session ended: %s", e->why);
        }
    }
    char prefix[48];
    snprintf(prefix, sizeof(prefix), "ps-%s-", ss->instance);
    if (strncmp(id, prefix, strlen(prefix)) != 0 &&
        strncmp(id, "ps-", 3) == 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "unknown session: it was not created by this server "
                       "(instance %s)",
                       ss->instance);
    }
    return pw_fail(err, PW_ERR_USAGE,
                   "unknown session: no open session of yours has this id");
}

/* Session I, if its process ended since (between calls): ended now. */
static bool
check_alive(struct pw_sessions *ss, int i)
{
    struct pw_session *s = ss->v[i];
    const char *why = pw_sbx_session_ended(s->sbx);
    if (why == NULL) {
        return true;
    }
    char copy[200];
    snprintf(copy, sizeof(copy), "%s", why);
    drop(ss, i, PW_SESSION_DIED, copy);
    return false;
}

struct pw_session *
pw_sessions_get(struct pw_sessions *ss, const char *owner, const char *id,
                struct pw_error *err)
{
    int i = find(ss, owner, id);
    if (i >= 0 && check_alive(ss, i)) {
        return ss->v[i];
    }
    not_live(ss, owner, id, err);
    return NULL;
}

int
pw_sessions_close(struct pw_sessions *ss, const char *owner, const char *id,
                  struct pw_error *err)
{
    int i = find(ss, owner, id);
    if (i < 0) {
        return not_live(ss, owner, id, err);
    }
    drop(ss, i, PW_SESSION_CLOSED, "closed by close_session");
    return 0;
}

json_t *
pw_sessions_list(struct pw_sessions *ss, const char *owner)
{
    json_t *list = json_array();
    double now = pw_now();
    for (int i = ss->n - 1; i >= 0; i--) {
        if (strcmp(ss->v[i]->owner, owner) == 0) {
            (void)check_alive(ss, i);
        }
    }
    for (int i = 0; list != NULL && i < ss->n; i++) {
        const struct pw_session *s = ss->v[i];
        if (strcmp(s->owner, owner) != 0) {
            continue;
        }
        double idle_left = s->last_used + s->ttl_s - now;
        double life_left = s->created + ss->lim.lifetime_s - now;
        json_array_append_new(
            list,
            json_pack("{s:s,s:f,s:f,s:I,s:b,s:I,s:f,s:f}", "session_id", s->id,
                      "age", now - s->created, "idle", now - s->last_used,
                      "calls", (json_int_t)s->calls, "busy",
                      pw_sbx_session_busy(s->sbx), "memory_limit",
                      (json_int_t)s->memory, "ttl", s->ttl_s, "expires_in",
                      fmax(0, fmin(idle_left, life_left))));
    }
    return list;
}

double
pw_sessions_tick(struct pw_sessions *ss, double now)
{
    double next = INFINITY;
    for (int i = ss->n - 1; i >= 0; i--) {
        struct pw_session *s = ss->v[i];
        bool busy = pw_sbx_session_busy(s->sbx);
        if (busy) {
            s->last_used = now; /* idle counts from the call's end */
        }
        double idle_end = s->last_used + s->ttl_s;
        double life_end = s->created + ss->lim.lifetime_s;
        char why[120];
        if (now >= life_end) {
            snprintf(why, sizeof(why),
                     "expired: it reached its maximum lifetime (%g s)",
                     ss->lim.lifetime_s);
            drop(ss, i, PW_SESSION_LIFETIME, why);
            continue;
        }
        if (!busy && now >= idle_end) {
            snprintf(why, sizeof(why),
                     "expired: idle for more than its ttl (%g s)", s->ttl_s);
            drop(ss, i, PW_SESSION_IDLE, why);
            continue;
        }
        if (!busy && !check_alive(ss, i)) {
            continue;
        }
        next = fmin(next, busy ? life_end : fmin(idle_end, life_end));
    }
    return next;
}
