/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * filter.h - the seccomp allow-list (rules/seccomp.json), compiled to
 * BPF once in the zygote and only installed by the child.
 */
#pragma once

#include <stdbool.h>
#include <sched.h>
#include <signal.h>
#include <sys/types.h>
#include <linux/filter.h>

#include "core/pyward.h"

/* The rlimit defaults and the request defaults held in seccomp.json. */
struct pw_sbx_policy {
    long long nofile;
    long long fsize;
    long long nproc;
    long long session_nproc; /* a session and its copies (fork_session) */
    long long core;
    long long memlock;
    long long stack;
    double default_timeout;
    long long default_memory;
    long long default_max_output;
    /* "workspace": the run's scratch directory and its output/ files. */
    long long workspace_bytes;
    long long workspace_files;
    long long output_files;
    long long output_file_bytes;
    long long output_total_bytes;
};

struct pw_sbx_filter;

/* Load RULES_DIR/seccomp.json strictly and compile two programs (without
 * and with the network capability).  Returns an owned filter or NULL with
 * ERR; POLICY receives the rlimit and request defaults. */
struct pw_sbx_filter *pw_sbx_filter_load(const char *rules_dir,
                                         struct pw_sbx_policy *policy,
                                         struct pw_error *err);
void pw_sbx_filter_free(struct pw_sbx_filter *f);
/* An owned copy of F. */
struct pw_sbx_filter *pw_sbx_filter_copy(const struct pw_sbx_filter *f);

/* Borrowed compiled program. */
const struct sock_fprog *pw_sbx_filter_prog(const struct pw_sbx_filter *f,
                                            bool network);
/* Number of allowed system calls (for doctor). */
int pw_sbx_filter_count(const struct pw_sbx_filter *f);

/* Name of a native system call number (static), or NULL. */
const char *pw_sbx_syscall_name(int nr);

/* In the child: install PROG (no_new_privs must be set).  Async-signal
 * safe; returns the filter's notification listener (an owned fd for the
 * parent: the child must hand it over and close it before user code
 * runs) or -1 with errno. */
int pw_sbx_filter_install(const struct sock_fprog *prog);
/* The clones a session makes of itself for fork_session, the only ones
 * the server lets through: a plain fork (no pointer argument used), and
 * for a copy of a session with a workspace tmpfs, one with a mount
 * namespace of its own (the copy of the session's, which landlock and
 * the filter keep it from changing; the server mounts its workspace). */
#define PW_SBX_FORK_FLAGS    SIGCHLD
#define PW_SBX_FORK_NS_FLAGS (SIGCHLD | CLONE_NEWNS)

/* What the listener reported: a call outside the allow-list, made by the
 * child, which is stopped in it until it is answered or killed. */
struct pw_sbx_notice {
    int nr;         /* the system call */
    long long arg0; /* its first argument (exit_group: the status) */
    long long arg1;
    pid_t pid; /* the calling thread, in the server's PID namespace */
    unsigned long long id;
};
/* In the parent: take the notice LISTENER has pending, without waiting.
 * 0 or -1 (none). */
int pw_sbx_notify_take(int listener, struct pw_sbx_notice *n);
/* Let an exit_group the listener reported go on (no other call is ever
 * let through: the filter's decision stands).  0 or -1. */
int pw_sbx_notify_let_exit(int listener, const struct pw_sbx_notice *n);
/* fork_session (family.c) only: let the call go on: a session's clone
 * with exactly PW_SBX_FORK_FLAGS, or its copy's setsid.  0 or -1. */
int pw_sbx_notify_let_copy(int listener, const struct pw_sbx_notice *n);
/* Put FD (the server's) into the process stopped in N as its fd TARGET
 * (replacing what it had there).  0 or -1. */
int pw_sbx_notify_give_fd(int listener, const struct pw_sbx_notice *n, int fd,
                          int target);
