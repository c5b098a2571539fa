/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * limits.c - set the rlimits of a run in the child.
 *
 * Defines pw_sbx_set_*_rlimits, pw_sbx_as_allowance and pw_sbx_vm_size.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <math.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/pyward.h"
#include "sandbox/os/filter.h"
#include "sandbox/os/limits.h"
#include "sandbox/os/mountns.h"

static int
set_one(int res, long long soft, long long hard)
{
    struct rlimit rl = {.rlim_cur = (rlim_t)soft, .rlim_max = (rlim_t)hard};
    return setrlimit(res, &rl);
}

int
pw_sbx_set_fixed_rlimits(const struct pw_sbx_policy *p, const char **what)
{
    const struct {
        const char *name;
        int res;
        long long value;
    } table[] = {
        {"RLIMIT_FSIZE", RLIMIT_FSIZE, p->fsize},
        {"RLIMIT_CORE", RLIMIT_CORE, p->core},
        {"RLIMIT_MEMLOCK", RLIMIT_MEMLOCK, p->memlock},
        {"RLIMIT_STACK", RLIMIT_STACK, p->stack},
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(table); i++) {
        if (set_one(table[i].res, table[i].value, table[i].value) < 0) {
            *what = table[i].name;
            return -1;
        }
    }
    return 0;
}

int
pw_sbx_set_nofile(const struct pw_sbx_policy *p)
{
    return set_one(RLIMIT_NOFILE, p->nofile, p->nofile);
}

int
pw_sbx_set_nproc(long long soft, long long hard)
{
    return set_one(RLIMIT_NPROC, soft, hard);
}

long long
pw_sbx_as_allowance(long long memory, long long ws)
{
    long long rest = memory - ws;
    return rest > 0 ? rest : 0;
}

int
pw_sbx_set_run_rlimits(const struct pw_sbx_limits *lim, long long as_base,
                       double cpu_used, const char **what)
{
    double cpu = lim->cpu_s > 0         ? lim->cpu_s
                 : lim->cpu_limit_s > 0 ? lim->cpu_limit_s + 0.5
                                        : lim->timeout_s + 1;
    long long cpu_s = (long long)ceil(cpu + cpu_used);
    if (set_one(RLIMIT_CPU, cpu_s, cpu_s + 1) < 0) {
        *what = "RLIMIT_CPU";
        return -1;
    }
    long long as = as_base + pw_sbx_as_allowance(lim->memory_bytes,
                                                 pw_sbx_mountns_ws_bytes());
    if (set_one(RLIMIT_AS, as, as) < 0) {
        *what = "RLIMIT_AS";
        return -1;
    }
    return 0;
}

long long
pw_sbx_vm_size_at(int statm_fd)
{
    char buf[128];
    ssize_t n = statm_fd >= 0 ? pread(statm_fd, buf, sizeof(buf) - 1, 0) : -1;
    if (n <= 0) {
        return 0;
    }
    buf[n] = '\0';
    return strtoll(buf, NULL, 10) * sysconf(_SC_PAGESIZE);
}

long long
pw_sbx_vm_size(void)
{
    /* open/read only: this also runs in the freshly forked child. */
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    long long size = pw_sbx_vm_size_at(fd);
    if (fd >= 0) {
        close(fd);
    }
    return size;
}
