/*
 * sbx-limits.h - the rlimits of a run (isolate's table): CPU, AS, FSIZE,
 * NOFILE, NPROC, CORE, MEMLOCK, STACK.
 */
#pragma once

#include "sandbox.h"
#include "sbx-filter.h"

/* In the child.  AS is AS_BASE (the zygote's mapped size) plus the run's
 * memory limit.  Returns 0 or -1 with errno and *WHAT naming the limit;
 * a limit that cannot be set refuses the run. */
int pw_sbx_set_rlimits(const struct pw_sbx_policy *p,
                       const struct pw_sbx_limits *lim, long long as_base,
                       const char **what);

/* The zygote's current virtual size in bytes (from /proc/self/statm). */
long long pw_sbx_vm_size(void);
