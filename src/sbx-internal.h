/*
 * sbx-internal.h - the zygote and run records shared by the executor's
 * files (sandbox.c: parent side, sbx-child.c: the child's checklist,
 * sbx-result.c: the verdict and result object).
 */
#pragma once

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sandbox.h"
#include "sbx-filter.h"
#include "sbx-layers.h"
#include "util.h"

/* The most spares a zygote keeps (pw_zygote_set_spares clamps to it). */
#define PW_SBX_SPARES_MAX 8
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

struct pw_zygote {
    const struct pw_profiles *profiles;
    pw_profile_mask enabled;
    struct pw_sbx_filter *filter;
    struct pw_sbx_policy policy;
    struct pw_sbx_layers layers;
    long long as_base;
    char *missing; /* modules of the enabled profiles not installed */
    char *tmp_root;
    /* The scratch path of runs that need no host directory (one for all:
     * each run's view makes it; see pw_sbx_ws_kind). */
    char *view_scratch;
    unsigned long runs;
    /* Children forked ahead, prepared and waiting, oldest first. */
    struct pw_sbx_spare *spares[PW_SBX_SPARES_MAX];
    int nspares;
    int want_spares;      /* the pool size the zygote keeps */
    bool refill_on_start; /* pw_zygote_refill_on_start */
    unsigned spare_caps;  /* PW_SBX_OS_CAPS new spares are prepared with:
                           * the enabled profiles', then the last request's */
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

enum pw_sbx_stop {
    PW_STOP_NONE,
    PW_STOP_TIMEOUT,
    PW_STOP_OUTPUT,
    PW_STOP_CANCEL,
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
    bool on_spare;      /* served by a prepared spare (not forked for it) */
    bool usage;         /* the child reported its own usage ("U" record) */
    bool reap_deferred; /* done, but its process is left to pw_sbx_reap */
    double cpu_s;       /* the run's CPU time from the "U" record */
    long maxrss_kb;
    char *scratch;
    int ws_fd; /* the workspace tmpfs handed over by the child, or -1 */
    char id[48];
};

/* What the child needs, prepared by the parent before fork. */
struct pw_sbx_child {
    const struct pw_zygote *z;
    const struct pw_sbx_request *req;
    const char *scratch;
    void *compiled; /* borrowed PyObject: guard.precompile's tuple */
    int fd_in, fd_out, fd_err, fd_res; /* the child's pipe ends */
    int fd_ctl;       /* spare: its request pipe (kept as fd 4), or -1 */
    unsigned os_caps; /* PW_SBX_OS_CAPS its OS layers are set up for */
};

/* The scratch path of a run with CAPS: a private host directory (owned
 * by nobody when root), Z's view_scratch when the run's view makes it,
 * or NULL. */
char *pw_sbx_scratch_new(const struct pw_zygote *z, unsigned caps,
                         struct pw_error *err);
/* Free DIR, removing it first if it is a host directory. */
void pw_sbx_scratch_drop(const struct pw_zygote *z, char *dir);
/* Four CLOEXEC pipes: stdin, stdout, stderr, result.  0 or -1. */
int pw_sbx_pipes_new(int p[4][2], struct pw_error *err);
/* Close one side (0 read, 1 write) of each of the four pipes. */
void pw_sbx_pipes_close(int p[4][2], int side);

/*
 * A spare: a child forked ahead of time (sbx-spare.c) that has already
 * paid for most of the copy-on-write faults a run costs and installed
 * every request-independent layer of the checklist.  It waits for one
 * request on a pipe, then does only the request's part.
 */
struct pw_sbx_spare {
    pid_t pid;
    int pidfd;
    int ctl;    /* write end of the request pipe */
    int fds[4]; /* parent ends: stdin write; stdout, stderr, result read */
    char *scratch;
    unsigned caps; /* PW_SBX_OS_CAPS it was prepared for */
};

/* Fork a spare; NULL if that fails (runs then fork on demand). */
struct pw_sbx_spare *pw_sbx_spare_new(struct pw_zygote *z);
/* True if the spare's process is still there (not failed or killed). */
bool pw_sbx_spare_alive(const struct pw_sbx_spare *s);
/* Kill, reap and free an unused spare. */
void pw_sbx_spare_free(const struct pw_zygote *z, struct pw_sbx_spare *s);
/* Hand REQ (with the run's LIMITS) to the spare.  0 or -1. */
int pw_sbx_spare_send(struct pw_sbx_spare *s, const struct pw_sbx_request *req,
                      const struct pw_sbx_limits *limits);

/* The child's checklist, in three parts (sbx-child.c).  Setup: every
 * request-independent layer, seccomp last (a spare runs it before its
 * request).  Limits: the request's CPU and memory rlimits, and the usage
 * baseline.  Exec: the interpreter layers, the audit hook, the program,
 * the usage record, _exit.  A step that fails reports an "E" record and
 * _exits. */
void pw_sbx_child_setup(const struct pw_sbx_child *c);
void pw_sbx_child_limits(const struct pw_sbx_limits *lim);
PW_NORETURN void pw_sbx_child_exec(const struct pw_sbx_child *c);
/* Refuse the run from the child: "E" record, _exit. */
PW_NORETURN void pw_sbx_child_fail(const char *step, int err);
/* All three parts, for a child forked on demand; never returns. */
PW_NORETURN void pw_sbx_child_main(const struct pw_sbx_child *c);

/* Zygote: reap finished runs' processes left behind and remove their
 * scratch directories (non-blocking unless WAIT).  Returns how many are
 * still pending. */
size_t pw_sbx_reap(struct pw_zygote *z, bool wait);

/* Build the result object of a finished run (sbx-result.c). */
json_t *pw_sbx_result_build(const struct pw_sbx_run *run);
