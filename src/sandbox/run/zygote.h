/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * zygote.h - the zygote process, which forks the spares (zygote.c).
 */
#pragma once

#include <stdbool.h>

#include "core/pyward.h"

struct pw_zygote;
struct pw_sbx_spare;

/* The zygote process (zygote.c).  Start: fork it (Z fully set up,
 * before any request); 0 or -1.  Stop: close its socket, reap it. */
int pw_sbx_zygote_start(struct pw_zygote *z, struct pw_error *err);
void pw_sbx_zygote_stop(struct pw_zygote *z);
/* Import the profiles' modules where spares are forked from (the owner
 * before the zygote process starts, or that process): 0 or -1 with ERR. */
int pw_sbx_zygote_warm(struct pw_zygote *z, struct pw_error *err);
/* Ask it for one spare prepared for CAPS (it answers in order).  0 or
 * -1 (the zygote is gone). */
int pw_sbx_zygote_ask(struct pw_zygote *z, unsigned caps);
/* Receive one answer (BLOCK: wait for it).  1: an answer came (*OUT is
 * the spare, owned, or NULL if the fork failed or the answer was the
 * report of a zygote warmed in the background); 0: none yet; -1: the
 * zygote is gone. */
int pw_sbx_zygote_receive(struct pw_zygote *z, bool block,
                          struct pw_sbx_spare **out);
/* Probe once (in the server, before the zygote starts) whether a child
 * can get a PID namespace of its own; sets Z->pidns and its reason. */
void pw_sbx_pidns_probe(struct pw_zygote *z);
