/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * limits.h - the rlimits of a run (isolate's table): CPU, AS, FSIZE,
 * NOFILE, NPROC, CORE, MEMLOCK, STACK.
 */
#pragma once

struct pw_sbx_policy;

/* The wall clock a run with a CPU time limit gets: this many times the
 * limit (a run that waits, for input or in sleep, is stopped there). */
#define PW_SBX_WALL_MULTIPLE 3

/* The limits of one run (a request's, or the server's defaults). */
struct pw_sbx_limits {
    double timeout_s; /* wall clock, enforced by the parent */
    double cpu_s;     /* RLIMIT_CPU; 0: derived from timeout */
    /* > 0: the run's CPU time limit (what a grader's "timeout" means),
     * checked by the parent as the run goes and at its end (TIMEOUT
     * beyond it), with RLIMIT_CPU rounded up behind it; the wall clock
     * (TIMEOUT_S) then defaults to PW_SBX_WALL_MULTIPLE times it. */
    double cpu_limit_s;
    long long memory_bytes;     /* RLIMIT_AS */
    long long max_output_bytes; /* per stream, stdout and stderr */
};

/* In the child, before the request: the limits every run shares
 * (FSIZE, CORE, MEMLOCK, STACK).  Returns 0 or -1 with errno and *WHAT
 * naming the limit; a limit that cannot be set refuses the run. */
int pw_sbx_set_fixed_rlimits(const struct pw_sbx_policy *p, const char **what);

/* RLIMIT_NOFILE, set once the child has sent the server its fds
 * (SCM_RIGHTS): the kernel refuses a send while the sender's uid has more
 * fds in flight, host-wide, than the sender's own RLIMIT_NOFILE, and every
 * idle spare of every server on the host keeps its listener in flight
 * until a run takes it.  Under the run's small limit a few servers' pools
 * would be enough to refuse the next spare.  0 or -1 with errno. */
int pw_sbx_set_nofile(const struct pw_sbx_policy *p);

/* RLIMIT_NPROC, which counts the processes and threads of the child's
 * uid in its own user namespace: set once that namespace exists (a
 * namespace made under a soft limit of 0 would refuse every clone
 * below it, the server's copies of a session included).  The setup
 * keeps the soft limit at the policy's nproc and the hard one at its
 * session_nproc; a fresh run's request lowers both to nproc, a session
 * raises the soft one only to clone itself (fork_session).  0 or -1. */
int pw_sbx_set_nproc(long long soft, long long hard);

/* The address space a run with MEMORY bytes of limit may add when its
 * workspace is a tmpfs of WS bytes (0: none): MEMORY - WS (not below 0),
 * so that the tmpfs's pages (which RLIMIT_AS does not see) and the
 * program's memory stay within MEMORY together.  A run's tmpfs is sized
 * from its limit (pw_sbx_workspace_bytes: at most half of it), so this is
 * at least MEMORY / 2. */
long long pw_sbx_as_allowance(long long memory, long long ws);

/* In the child, once the request is known and before any of its code is
 * compiled: CPU (the run's budget on top of CPU_USED, the seconds the
 * child already spent) and AS (AS_BASE, the child's mapped size, plus
 * pw_sbx_as_allowance of the run's memory limit).  Only ever lowers what
 * the zygote had.  0 or -1 as above. */
int pw_sbx_set_run_rlimits(const struct pw_sbx_limits *lim, long long as_base,
                           double cpu_used, const char **what);

/* The process's current virtual size in bytes (from /proc/self/statm),
 * 0 if unknown; _at: read from an open STATM_FD of it (pread, so it can
 * be read again). */
long long pw_sbx_vm_size(void);
long long pw_sbx_vm_size_at(int statm_fd);
