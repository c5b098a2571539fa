/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * run/child.h - what a run's child is given and the checklist it runs
 * (run/child.c).
 */
#pragma once

#include <stdbool.h>

#include "sandbox/sandbox.h"
#include "core/util.h"

struct pw_zygote;

/* What the child needs, prepared by the parent before fork. */
struct pw_sbx_child {
    const struct pw_zygote *z;
    const struct pw_sbx_request *req;
    const char *scratch;
    void *compiled; /* borrowed PyObject: guard.precompile's tuple */
    int fd_in, fd_out, fd_err, fd_res; /* the child's pipe ends */
    int fd_ctl;                        /* its request pipe (kept as fd 4) */
    /* The key its OS layers are set up for (pw_sbx_spare_key). */
    unsigned os_caps;
    bool session; /* a session: the request pipe stays (fd_ctl: 4) */
    /* Or NULL: called by pw_sbx_child_begin once the interpreter layers
     * are prepared, before the audit hook and the "G" record (a batch's
     * first test made ready off the program's CPU time); nonzero fails
     * the checklist. */
    int (*before_hook)(void);
};

/* The child's checklist, in three parts (child.c).  Setup: every
 * request-independent layer, seccomp last, its listener handed to the
 * server (a spare runs all this before its request).  Limits: the
 * request's CPU and memory rlimits.  Exec: the interpreter layers, the
 * audit hook, the "G" record (what follows on the result channel is the
 * program's), the program, _exit with its exit status.  A step that fails
 * reports an "E" record and _exits. */
void pw_sbx_child_setup(const struct pw_sbx_child *c);
/* A spare, once set up: the request-independent part of the interpreter
 * layers (pw_sbx_guard_ready), before any request. */
void pw_sbx_child_ready(const struct pw_sbx_child *c);
void pw_sbx_child_limits(const struct pw_sbx_child *c,
                         const struct pw_sbx_limits *lim);
PW_NORETURN void pw_sbx_child_exec(const struct pw_sbx_child *c);
/* Exec's first part (a session runs the program itself, call after
 * call): the interpreter layers, the audit hook, the "G" record. */
void pw_sbx_child_begin(const struct pw_sbx_child *c);
/* Close the pipes, _exit with STATUS. */
PW_NORETURN void pw_sbx_child_end(int status);
/* Refuse the run from the child: "E" record, _exit. */
PW_NORETURN void pw_sbx_child_fail(const char *step, int err);
