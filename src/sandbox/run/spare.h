/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * spare.h - a child forked ahead of the next run (spare.c).
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "core/pyward.h"
#include "sandbox/run/record.h"

/*
 * A spare: a child forked ahead of time (spare.c) that has already
 * paid for most of the copy-on-write faults a run costs and installed
 * every request-independent layer of the checklist.  It waits for one
 * request on a pipe, then does only the request's part.
 */
struct pw_sbx_spare {
    pid_t pid;
    int pidfd;
    int ctl;       /* write end of the request pipe */
    int fds[4];    /* parent ends: stdin write; stdout, stderr, result read */
    int stat_fd;   /* its /proc/PID/schedstat (CPU so far), or -1 */
    int status_fd; /* its /proc/PID/status (peak RSS), or -1 */
    char *scratch;
    unsigned caps; /* the key it was prepared for (pw_sbx_spare_key) */
};

/* In a new spare (never returns): the checklist's setup, then one run.
 * PACE: no warm-up (HURRIED), a warm-up if the request is late, one that
 * draws a figure too (PAUSES; pw_sbx_guard_warmup). */
PW_NORETURN void pw_sbx_spare_main(const struct pw_zygote *z, int p[4][2],
                                   int ctl, const char *scratch, unsigned caps,
                                   enum pw_sbx_pace pace);
/* Server: the record of a spare received from the zygote: PID (a child of
 * the server), the CAPS it was prepared for, FDS (owned: request pipe,
 * stdin, stdout, stderr, result) and SCRATCH (owned). */
struct pw_sbx_spare *pw_sbx_spare_adopt(pid_t pid, unsigned caps,
                                        const int fds[5], char *scratch);
/* PID's /proc/PID/schedstat (CPU so far) and /proc/PID/status (peak
 * RSS), opened for the server (each -1 if it cannot be): a spare's, or
 * a session copy's. */
void pw_sbx_proc_fds(pid_t pid, int *stat_fd, int *status_fd);
/* True if the spare's process is still there (not failed or killed). */
bool pw_sbx_spare_alive(const struct pw_sbx_spare *s);
/* Kill, reap and free an unused spare. */
void pw_sbx_spare_free(const struct pw_zygote *z, struct pw_sbx_spare *s);
/* REQ (with the run's LIMITS) as the spare reads it, appended to MSG
 * (its support files given by fd left out: wsfiles.c puts them in). */
void pw_sbx_request_encode(const struct pw_sbx_request *req,
                           const struct pw_sbx_limits *limits,
                           struct pw_buf *msg);
/* Write REQ (with the run's LIMITS) on the request pipe CTL.  0 or -1. */
int pw_sbx_request_write(int ctl, const struct pw_sbx_request *req,
                         const struct pw_sbx_limits *limits);
/* Hand REQ (with the run's LIMITS) to the spare (its request pipe kept
 * for a session's next calls).  0 or -1. */
int pw_sbx_spare_send(struct pw_sbx_spare *s, const struct pw_sbx_request *req,
                      const struct pw_sbx_limits *limits);
