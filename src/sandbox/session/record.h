/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * session/record.h - a session's record (session/session.c; session/fork.c
 * copies it).
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "sandbox/sandbox.h"

struct pw_zygote;
struct pw_sbx_run;
struct pw_sbx_family;
struct pw_sbx_notice;
struct pw_sbx_fork;

/* The fds a session keeps between calls (they move to the call's
 * run). */
struct pw_sbx_session_fds {
    int pidfd, ctl, out, err, res, ws_fd, listener, stat_fd, status_fd;
};

struct pw_sbx_session {
    struct pw_zygote *z;
    pid_t pid; /* 0 once ended */
    struct pw_sbx_session_fds fd;
    char *scratch; /* owned */
    unsigned caps;
    struct pw_sbx_limits limits; /* the first call's (memory: the
                                  * session's) */
    struct pw_sbx_run *run;      /* the call in flight, or NULL */
    bool orphan;                 /* freed during a call: the call frees it */
    bool batch;                  /* pw_sbx_batch_new's: tests only */
    json_t *seen;                /* owned: output/ files reported */
    char ended[160];
    /* Once copied (fork_session): the family it shares a PID namespace
     * with, and its process is not the server's child any more. */
    struct pw_sbx_family *fam;
    bool not_child;
    /* Set with FAM (fork.c: pw_sbx_session_route): deals with a notice
     * the session's listener gave during its call that is another
     * copy's; true if it was. */
    bool (*route)(struct pw_sbx_session *s, int listener,
                  const struct pw_sbx_notice *n);
    /* While a copy is being made (fork.c): the fork under way, and what
     * ends it when the session is freed first. */
    struct pw_sbx_fork *fork;
    void (*fork_abort)(struct pw_sbx_session *s);
};

void pw_sbx_session_close_fds(struct pw_sbx_session_fds *f);
/* What a program left in the pipes between calls: dropped. */
void pw_sbx_session_drop_leftovers(const struct pw_sbx_session *s);
