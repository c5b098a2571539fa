/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * wscopy.h - a session copy's own workspace tmpfs (wscopy.c).
 */
#pragma once

#include "core/pyward.h"

struct pw_zygote;

/*
 * In the server, while a session's copy (its process PIDFD, cloned with
 * a mount namespace of its own) waits in its hello: mount a fresh
 * workspace tmpfs of BYTES bytes (the session's own size) over SCRATCH in
 * the copy's namespace, holding a copy of the session's files.  Returns
 * the new tmpfs's root (an owned fd), or -1 with ERR.
 */
int pw_sbx_copy_workspace(const struct pw_zygote *z, long long bytes,
                          int pidfd, const char *scratch,
                          struct pw_error *err);
