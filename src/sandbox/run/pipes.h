/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pipes.h - the four channels between a run's child and the server (pipes.c).
 */
#pragma once

#include "core/pyward.h"

/* Four CLOEXEC pipes: stdin, stdout, stderr, result.  0 or -1. */
int pw_sbx_pipes_new(int p[4][2], struct pw_error *err);
/* Close one side (0 read, 1 write) of each of the four pipes. */
void pw_sbx_pipes_close(int p[4][2], int side);
