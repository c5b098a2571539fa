/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * run/record.h - the zygote and run records shared by the executor's
 * files (sandbox.c: the server's side, run/zygote.c: the zygote process,
 * run/spare.c: a spare, run/step.c: a run's progress, run/result.c: the
 * verdict and result object), and the functions of run/result.c and
 * sandbox.c they call.  A session's record is session/record.h, a
 * child's run/child.h.
 *
 * Three kinds of process: the server (the caller of this API: it reads
 * requests, relays their data and observes the runs), the zygote (forked
 * by pw_zygote_new before any request; it forks spares and never sees a
 * request's data), and the spares (forked by the zygote as the server's
 * children, each serving at most one run, or the calls of one session:
 * session/session.c).
 */
#pragma once

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sandbox/sandbox.h"
#include "sandbox/os/filter.h"
#include "sandbox/os/layers.h"
#include "core/util.h"

/* The most spares a zygote keeps (pw_zygote_set_spares clamps to it). */
#define PW_SBX_SPARES_MAX 8
/* Spares asked of the zygote process and not yet received, at most. */
#define PW_SBX_ASKED_MAX PW_SBX_SPARES_MAX
/* The pool's room: the spares kept plus those asked for other caps. */
#define PW_SBX_POOL_MAX (PW_SBX_SPARES_MAX + PW_SBX_ASKED_MAX)
/* The runs whose start times tell the client's pace. */
#define PW_SBX_PACE_RUNS 4
/* Finished runs left to clear before a new run clears them itself. */
#define PW_SBX_LEFTOVERS_MAX 8

/* The capabilities that change the OS layers a spare installs ahead of
 * its request: the network capability (another network namespace and
 * seccomp program) and the file capabilities (the workspace tmpfs and
 * what landlock lets the run write).  A spare serves only requests that agree
 * with it on these; the others are enforced inside the interpreter (audit
 * hook, guard), set after the request arrives.  Spares are prepared for the
 * zygote's enabled profiles, what a request gets by default. */
#define PW_SBX_OS_CAPS                                                        \
    ((unsigned)(PW_CAP_NETWORK | PW_CAP_WORKSPACE_FILES | PW_CAP_OUTPUT_FILES))

struct pw_sbx_session;
struct pw_sbx_notice;

struct pw_zygote {
    const struct pw_profiles *profiles;
    pw_sbx_compiler compiler; /* small programs' first compiler, or NULL */
    pw_profile_mask enabled;
    struct pw_sbx_filter *filter;
    struct pw_sbx_policy policy;
    struct pw_sbx_layers layers;
    long long as_base;
    char *missing; /* modules of the enabled profiles not installed */
    void *only;    /* owned PyObject list, or NULL: pw_zygote_new_for's */
    /* The profiles' modules are not imported yet where spares are forked
     * from (pw_zygote_new_warming: the zygote process imports them and
     * reports; ERROR says why it could not). */
    bool background;
    bool warming;
    char error[256];
    char *tmp_root;
    /* The scratch path of runs that need no host directory (one for all:
     * each run's view makes it; see pw_sbx_workspace_kind). */
    char *view_scratch;
    bool pidns; /* spares get a PID namespace of their own */
    char pidns_why[128];
    /* The server can read its runs' memory: each run's audit hook is
     * checked after the run (hookcheck.c). */
    bool hookcheck;
    char hookcheck_why[128];
    unsigned long runs;
    /* Server side: the zygote process and its socket (SOCK_SEQPACKET);
     * the capabilities of the spares asked of it, oldest first (its
     * replies come in that order). */
    pid_t owner; /* the server: the process whose children runs are */
    pid_t zpid;
    int zsock;
    /* The server's end of the zygote made before this one beside it
     * (pw_zygote_new_beside), closed in this zygote's process, or -1. */
    int beside_sock;
    unsigned asked[PW_SBX_ASKED_MAX];
    int nasked;
    int spare_fails; /* answers in a row that brought no spare */
    /* Spares received, prepared and waiting, oldest first. */
    struct pw_sbx_spare *spares[PW_SBX_POOL_MAX];
    int nspares;
    int want_spares;      /* the pool size the zygote keeps */
    bool refill_on_start; /* pw_zygote_refill_on_start */
    unsigned spare_caps;  /* the key new spares are prepared for
                           * (pw_sbx_spare_key: PW_SBX_OS_CAPS and the
                           * workspace's size): the enabled profiles' at
                           * the default memory limit, then the last
                           * request's */
    /* When the last runs started, oldest first, and how long the server
     * had been without a run before each (0: one was in flight); see
     * pw_sbx_pace. */
    double starts[PW_SBX_PACE_RUNS];
    double idle[PW_SBX_PACE_RUNS];
    int nstarts;
    int inflight;    /* runs started and not yet freed */
    double last_end; /* when the last of them was freed */
    /* What finished runs left behind: processes to reap, scratch
     * directories to remove (pw_sbx_reap, off the runs' way). */
    struct pw_sbx_leftover *reap;
    size_t nreap;
};

/* A finished run's process (0 when it was reaped) and its scratch
 * directory (owned), removed once the process is gone. */
struct pw_sbx_leftover {
    pid_t pid;
    char *scratch;
};

/* A run's audit hook, read by the server after the run (hookcheck.c). */
enum pw_sbx_hook {
    PW_HOOK_INTACT, /* or not checked */
    PW_HOOK_ALTERED,
    PW_HOOK_UNREADABLE, /* the run's memory could not be read */
};

enum pw_sbx_stop {
    PW_STOP_NONE,
    PW_STOP_TIMEOUT, /* the wall clock */
    PW_STOP_CPU,     /* its CPU time limit (limits.cpu_limit_s) */
    PW_STOP_OUTPUT,
    PW_STOP_CANCEL,
    PW_STOP_SYSCALL, /* the seccomp listener reported a refused call */
    PW_STOP_FILES,   /* the support files could not be put in place */
};

struct pw_sbx_stream {
    int fd;
    struct pw_buf buf;
    size_t total;
    bool truncated;
};

struct pw_sbx_run {
    struct pw_zygote *z;
    pid_t pid;
    int pidfd;
    int fd_in;
    char *stdin_data;
    size_t stdin_len;
    size_t stdin_off;
    struct pw_sbx_io io; /* io.in_fd >= 0: stdin streams from it */
    char pend[4096];     /* read from io.in_fd, not yet in fd_in */
    size_t pend_len, pend_off;
    struct pw_sbx_stream out, err, res;
    struct pw_sbx_limits limits;
    bool capture;
    unsigned caps; /* enum pw_cap bits of the request */
    double start;
    double end;
    enum pw_sbx_stop stop;
    bool done;
    int wstatus;
    struct rusage ru;
    bool on_spare;   /* served by a spare from the pool (not forked for
                      * it) */
    bool not_child;  /* a session's copy: signalled through its pidfd,
                      * reaped by its namespace's init */
    double cpu_base; /* the process's CPU seconds when the request was
                      * sent (its setup and warm-up), -1 if unknown */
    double cpu_g;    /* the CPU seconds its "G" record carries (the
                      * program's start), -1 until read */
    int stat_fd;     /* its /proc/PID/schedstat and status, or -1 */
    int status_fd;
    /* The exit_group the listener reported: the exit status, and the
     * usage read while the process waited in it.  The run is over once
     * its pipes are drained; its teardown is reaped later. */
    bool exit_seen;
    int exit_status;
    double cpu_end;     /* CPU seconds at the exit, -1 if unknown */
    long maxrss_kb;     /* peak RSS at the exit (VmHWM), -1 if unknown */
    bool reap_deferred; /* done, its process left to pw_sbx_reap */
    bool paced;         /* counted in the zygote's pace (pace_note) */
    char *scratch;
    /* The fds the checklist hands over first on the result channel, in
     * this order: the workspace tmpfs (tmpfs runs only), then the seccomp
     * listener.  -1 until received. */
    int ws_fd;
    int listener;
    size_t fds_got; /* how many of them came */
    int refused_nr; /* the system call the listener reported, or -1 */
    /* The audit hook as the server found it after the run or the call
     * (pw_sbx_hook_intact). */
    enum pw_sbx_hook hook;
    char id[48];
    /* A session's call (session.c): the session it borrows the process,
     * fds and scratch of (NULL: a fresh run), its request pipe, and the
     * call's end: the report read (the process stays). */
    struct pw_sbx_session *sess;
    /* Set with SESS (session.c): the run is being freed (pw_sbx_free),
     * the session takes its process and fds back, or ends. */
    void (*release)(struct pw_sbx_run *r);
    int ctl;
    bool reported;
    bool rerun;   /* a batch's test its report says must run afresh */
    size_t scan;  /* res.buf searched for the report up to here */
    json_t *seen; /* borrowed: the session's files reported */
    /* A session's call at its time limit: GRACE_S > 0 sends SIGINT (a
     * KeyboardInterrupt) and kills only if the call has not reported
     * GRACE_S seconds later; INTERRUPTED once the signal was sent. */
    double grace_s;
    bool interrupted;
    double interrupted_at;
    /* Support files given by fd (wsfiles.c): their copy into the
     * workspace while the request waits in PENDING (sent once they are
     * in, on the request pipe CTL), and why they could not be. */
    struct pw_sbx_wsfiles *files;
    struct pw_buf pending;
    char files_error[200];
};

/* What a listener reported for R's process: an exit_group let go with
 * its status taken, any other call refused (the process killed). */
void pw_sbx_run_notice(struct pw_sbx_run *r, const struct pw_sbx_notice *n);

/* How the client paces its runs, which a new spare's warm-up follows.
 * PAUSES: the last runs started at least a quarter of a second apart (or
 * there were none yet); the spare warms a figure up too (with matplotlib
 * loaded: 25 to 30 ms of CPU while it waits).  HURRIED: the last two
 * runs each started within a few milliseconds of the one before it
 * ending, or while another was in flight; the spare does not warm up at
 * all, since its request would wait for the step it is in (a step costs
 * a few milliseconds where page faults are dear) and the warm-up's pages
 * are more than it saves.  STEADY otherwise: the spare warms up if its
 * request has not come soon. */
enum pw_sbx_pace {
    PW_SBX_PACE_HURRIED,
    PW_SBX_PACE_STEADY,
    PW_SBX_PACE_PAUSES,
};
enum pw_sbx_pace pw_sbx_pace(const struct pw_zygote *z);

/* Build the result object of a finished run (result.c). */
json_t *pw_sbx_result_build(const struct pw_sbx_run *run);
/* The status of a finished run (result.c). */
enum pw_sbx_status pw_sbx_result_status(const struct pw_sbx_run *run);

/* sandbox.c: a new run record for REQ (no process yet). */
struct pw_sbx_run *pw_sbx_run_new(struct pw_zygote *z,
                                  const struct pw_sbx_request *req);
