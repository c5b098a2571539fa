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
    double start;
    double end;
    enum pw_sbx_stop stop;
    bool done;
    int wstatus;
    struct rusage ru;
    char *scratch;
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

/* The child's checklist; never returns. */
PW_NORETURN void pw_sbx_child_main(const struct pw_sbx_child *c);

/* Build the result object of a finished run (sbx-result.c). */
json_t *pw_sbx_result_build(const struct pw_sbx_run *run);
