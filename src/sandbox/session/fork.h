/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fork.h - fork_session: a copy of a live session (fork.c, the server's
 * side; copy.c, the session process's; family.c, what the copies share;
 * wscopy.c, a copy's own workspace).
 */
#pragma once

#include "core/pyward.h"
#include "sandbox/session/session.h"

/*
 * Copy the session (fork_session): its process clones itself between
 * calls, globals, imports and all, under the same layers; the copy
 * serves its own calls with the session's limits from then on, and
 * neither sees the other's later state.  Only a session without files
 * (no workspace, no output/) can be copied, and no more processes than
 * rules/seccomp.json's session_nproc share one session's namespace.
 * Returns the copy (owned), or NULL with ERR saying why; the session
 * goes on either way unless it ended.
 */
struct pw_sbx_session *pw_sbx_session_fork(struct pw_sbx_session *s,
                                           struct pw_error *err);

/* The same stepped by the caller's loop: the request sent now, the
 * session's answer and its new processes' hellos taken as its fds become
 * ready (pw_sbx_fork_pollfds: up to 3), a wait cut at
 * pw_sbx_fork_deadline.  The session is busy (no call, no other copy)
 * meanwhile; freeing it ends the fork, which fails.  pw_sbx_fork_start
 * returns the fork (owned until its last step), or NULL with ERR when it
 * is refused at once. */
struct pw_sbx_fork;
struct pollfd;
struct pw_sbx_fork *pw_sbx_fork_start(struct pw_sbx_session *s,
                                      struct pw_error *err);
int pw_sbx_fork_pollfds(const struct pw_sbx_fork *f, struct pollfd *fds);
/* Monotonic time (pw_now) by which pw_sbx_fork_step must be called. */
double pw_sbx_fork_deadline(const struct pw_sbx_fork *f);
/* Step F with the revents of FDS (N of them, as pw_sbx_fork_pollfds
 * filled them).  True when F is over (F freed): *COPY the copy (owned),
 * or NULL with ERR; false while it goes on. */
bool pw_sbx_fork_step(struct pw_sbx_fork *f, const struct pollfd *fds, int n,
                      struct pw_sbx_session **copy, struct pw_error *err);

/* A notice LISTENER (S's filter's) gave while S's call ran: true if it
 * was another copy's and was dealt with (given to that copy's call, or
 * its process killed).  A session of a family has it as its route. */
struct pw_sbx_notice;
bool pw_sbx_session_route(struct pw_sbx_session *s, int listener,
                          const struct pw_sbx_notice *n);
