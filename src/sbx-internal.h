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

struct pw_zygote {
    const struct pw_profiles *profiles;
    pw_profile_mask enabled;
    struct pw_sbx_filter *filter;
    struct pw_sbx_policy policy;
    struct pw_sbx_layers layers;
    long long as_base;
    char *missing; /* modules of the enabled profiles not installed */
    char *tmp_root;
    unsigned long runs;
    struct pw_sbx_spare *spare; /* a child forked ahead, or NULL */
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
};

/* A private scratch directory (owned by nobody when root), or NULL. */
char *pw_sbx_scratch_new(const struct pw_zygote *z, struct pw_error *err);
void pw_sbx_scratch_remove(char *dir);
/* Four CLOEXEC pipes: stdin, stdout, stderr, result.  0 or -1. */
int pw_sbx_pipes_new(int p[4][2], struct pw_error *err);
/* Close one side (0 read, 1 write) of each of the four pipes. */
void pw_sbx_pipes_close(int p[4][2], int side);

/*
 * A spare: a child forked ahead of time, between requests, that has
 * already paid for most of the copy-on-write faults a run costs
 * (sbx-spare.c).  It waits for one request on a pipe, then runs the same
 * checklist as a child forked on demand.
 */
struct pw_sbx_spare {
    pid_t pid;
    int pidfd;
    int ctl;    /* write end of the request pipe */
    int fds[4]; /* parent ends: stdin write; stdout, stderr, result read */
    char *scratch;
};

/* Fork a spare; NULL if that fails (runs then fork on demand). */
struct pw_sbx_spare *pw_sbx_spare_new(struct pw_zygote *z);
/* Kill, reap and free an unused spare. */
void pw_sbx_spare_free(struct pw_sbx_spare *s);
/* Hand REQ (with the run's LIMITS) to the spare.  0 or -1. */
int pw_sbx_spare_send(struct pw_sbx_spare *s, const struct pw_sbx_request *req,
                      const struct pw_sbx_limits *limits);

/* The child's checklist; never returns. */
PW_NORETURN void pw_sbx_child_main(const struct pw_sbx_child *c);

/* Build the result object of a finished run (sbx-result.c). */
json_t *pw_sbx_result_build(const struct pw_sbx_run *run);
