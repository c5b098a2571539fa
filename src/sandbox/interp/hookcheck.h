/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * hookcheck.h - the server's look, from outside, at a run's audit hook
 * after the run: still linked, still the sandbox's, still configured as
 * the zygote configured it.
 */
#pragma once

#include <sys/types.h>

/* Can the server read the memory of REF (its zygote process; its own
 * memory when REF <= 0)?  0, or -1 with errno. */
int pw_sbx_hookcheck_probe(pid_t ref);

/* The audit hook of the run process PID, whose zygote is REF (<= 0: this
 * process is its image), allowing CAPS (enum pw_cap): 1 intact (the
 * interpreter's one C hook is audit.c's, with no other after it; it is
 * armed with CAPS; its lists and their sealed mapping are byte for byte
 * REF's), 0 altered, -1 PID's or REF's memory could not be read (errno). */
int pw_sbx_hook_intact(pid_t pid, pid_t ref, unsigned caps);
