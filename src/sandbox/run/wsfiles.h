/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * wsfiles.h - support files given by fd (wsfiles.c): copied into a
 * run's workspace by a thread of the caller's, off its loop, before the
 * request reaches the spare.
 */
#pragma once

#include <stdbool.h>

#include "core/pyward.h"

struct pw_sbx_run;
struct pw_sbx_request;
struct pw_zygote;

/* The number of REQ's files given by fd (pw_sbx_file.data NULL). */
size_t pw_sbx_wsfiles_count(const struct pw_sbx_request *req);
/* The bytes the files given by fd take in a workspace: each file (each
 * inode) once, in whole pages.  -1 with ERR if one is not a regular
 * file. */
long long pw_sbx_wsfiles_bytes(const struct pw_sbx_request *req,
                               struct pw_error *err);

/* R (not started yet) takes a copy job for REQ's files given by fd (their
 * fds duplicated, their names copied).  0, or -1 with ERR. */
int pw_sbx_wsfiles_attach(struct pw_sbx_run *r,
                          const struct pw_sbx_request *req,
                          struct pw_error *err);
/* The fd to poll for R's copy (POLLIN once it is over), or -1. */
int pw_sbx_wsfiles_pollfd(const struct pw_sbx_run *r);
/* Drive R's copy: start it once the workspace is reachable (the tmpfs's
 * fd came on the result channel, or the host directory).  1 once it is
 * over (the request R holds may go to the spare now), 0 while it is not
 * (also when R has no copy job), -1 when the copy failed (R's
 * files_error says why: the run must be stopped). */
int pw_sbx_wsfiles_step(struct pw_sbx_run *r);
/* Stop R's copy if one runs (at most one step more) and free it. */
void pw_sbx_wsfiles_stop(struct pw_sbx_run *r);
