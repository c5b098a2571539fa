/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * step.h - what step.c reads of a run's process besides driving it (its public
 * part is in sandbox.h).
 */
#pragma once

/* The CPU seconds of a process so far, from its /proc/PID/schedstat
 * STAT_FD; -1 if unknown. */
double pw_sbx_cpu_so_far(int stat_fd);
/* Its peak RSS in KiB (VmHWM) from its /proc/PID/status STATUS_FD; -1
 * if unknown. */
long pw_sbx_peak_rss(int status_fd);
