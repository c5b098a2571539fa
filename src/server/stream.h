/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stream.h - a run's output as it happens, in the progress notifications
 * of a call with a progressToken (stream.c).
 */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "sandbox/sandbox.h"

/* Bytes of stdout and stderr together one notification carries, at
 * most; and a call's notifications in all. */
#define PW_STREAM_NOTE_MAX  (16 * 1024)
#define PW_STREAM_TOTAL_MAX (1024 * 1024)

/* Where a call's streamed output is (zeroed: nothing sent yet). */
struct pw_stream {
    size_t next[2]; /* stdout, stderr: the byte to send next */
    size_t total;   /* bytes sent */
    bool capped;    /* the total reached: said once */
};

/* New reference: the _meta of a progress notification carrying RUN's
 * output since the last ("pyward/stdout", "pyward/stderr", and
 * "pyward/output_capped" once the total is reached), or NULL when there
 * is nothing new. */
json_t *pw_stream_meta(struct pw_stream *st, const struct pw_sbx_run *run);
