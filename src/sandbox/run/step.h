/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * step.h - what step.c reads of a run's process besides driving it, and
 * the signal it sends one (its public part is in sandbox.h).
 */
#pragma once

/* The CPU seconds of a process so far, from its /proc/PID/schedstat
 * STAT_FD; -1 if unknown. */
double pw_sbx_cpu_so_far(int stat_fd);
/* SIG to a process through its PIDFD (a session's copy never by its
 * pid: the copy is reaped by its namespace's init, not the server).
 * PIDFD -1: none. */
void pw_sbx_signal_copy(int pidfd, int sig);
/* Its peak RSS in KiB (VmHWM) from its /proc/PID/status STATUS_FD; -1
 * if unknown. */
long pw_sbx_peak_rss(int status_fd);
