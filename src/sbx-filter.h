/*
 * sbx-filter.h - the seccomp allow-list (rules/seccomp.json), compiled to
 * BPF once in the zygote and only installed by the child.
 */
#pragma once

#include <stdbool.h>
#include <linux/filter.h>

#include "pyward.h"

/* The rlimit defaults and the request defaults held in seccomp.json. */
struct pw_sbx_policy {
    long long nofile;
    long long fsize;
    long long nproc;
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
/* In the parent: the number of the refused system call LISTENER reports
 * (the child is stopped in it until killed), or -1 if none is pending. */
int pw_sbx_notify_take(int listener);
