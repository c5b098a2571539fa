/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * family.h - a session and its copies (fork_session): the processes of
 * one PID namespace, one seccomp filter and one listener.  The child's
 * side of a copy is copy.c, the server's is family.c and session.c.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#include "core/pyward.h"

struct pw_zygote;
struct pw_sbx_session;

/* The hello of a new process (setsid's arguments, which setsid ignores
 * and the filter's listener shows): its role, then this mark. */
#define PW_SBX_HELLO 0x7077636fLL
enum pw_sbx_copy_role {
    PW_SBX_COPY_SAME = 1, /* the session itself, moved off PID 1 */
    PW_SBX_COPY_NEW = 2,  /* the copy */
};

/* In a session process asked for a copy (copy.c): clone, answer with an
 * "R" record {"children": N, "error": ...}.  Returns in each process
 * that goes on serving calls; the first copy's PID 1 never returns. */
void pw_sbx_copy_session(void);

struct pw_sbx_family;

/* A family around the session process INIT (the server's child, PID 1
 * of its namespace), owning SCRATCH. */
struct pw_sbx_family *pw_sbx_family_new(struct pw_zygote *z, pid_t init,
                                        char *scratch);
/* S, whose process is PID, joins F; MOVED: its process is PID now. */
void pw_sbx_family_add(struct pw_sbx_family *f, struct pw_sbx_session *s,
                       pid_t pid);
void pw_sbx_family_moved(struct pw_sbx_family *f, struct pw_sbx_session *s,
                         pid_t pid);
/* S leaves F (its process already killed); the last one to leave kills
 * the namespace's init and leaves it and the scratch directory to
 * pw_sbx_reap, and frees F. */
void pw_sbx_family_remove(struct pw_sbx_family *f, struct pw_sbx_session *s);
/* The member whose process is the thread group of TID, or NULL. */
struct pw_sbx_session *pw_sbx_family_find(const struct pw_sbx_family *f,
                                          pid_t tid);
size_t pw_sbx_family_size(const struct pw_sbx_family *f);
/* The scratch directory's path (borrowed): the workspace's in every
 * member's view. */
const char *pw_sbx_family_scratch(const struct pw_sbx_family *f);
/* Forget INIT and SCRATCH again (a first copy that did not happen):
 * returns the scratch directory (owned) and frees F. */
char *pw_sbx_family_dissolve(struct pw_sbx_family *f);

/* A line of /proc/PID/status that holds a pid ("PPid:", "Tgid:"), or
 * -1. */
pid_t pw_sbx_proc_pid_field(pid_t pid, const char *key);

/* The channels of a copy: the server's ends in SERVER (request pipe's
 * write end, stdout, stderr, the result socket), non-blocking, and the
 * child's in CHILD, in the order of its fds 0-4 (stdin, which is at its
 * end already, stdout, stderr, result, request).  0, or -1 with ERR. */
int pw_sbx_copy_channels(int server[4], int child[5], struct pw_error *err);
