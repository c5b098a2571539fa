/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stream.c - a run's output as it happens.  The run's stdout and stderr
 * are read into its buffers as the run goes (the sandbox's step); a call
 * with a progressToken gets what came since its last progress
 * notification in the next one's _meta, at most PW_STREAM_NOTE_MAX
 * bytes a notification and PW_STREAM_TOTAL_MAX in all, each piece
 * ending on a character boundary.  The final result is the same with or
 * without: its stdout and stderr are the whole capped output.
 *
 * Defines pw_stream_meta.
 */
#include "config.h"

#include <stdlib.h>

#include "server/stream.h"

json_t *
pw_stream_meta(struct pw_stream *st, const struct pw_sbx_run *run)
{
    static const char *const keys[2] = {"pyward/stdout", "pyward/stderr"};
    if (run == NULL || st->capped) {
        return NULL;
    }
    json_t *meta = NULL;
    size_t room = PW_STREAM_NOTE_MAX;
    for (int i = 0; i < 2; i++) {
        size_t left = PW_STREAM_TOTAL_MAX - st->total;
        size_t max = room < left ? room : left;
        size_t len = 0;
        size_t next = st->next[i];
        char *text = max > 0 ? pw_sbx_output_since(run, i + 1, st->next[i],
                                                   max, &len, &next)
                             : NULL;
        if (text == NULL) {
            continue;
        }
        st->total += next - st->next[i];
        room -= next - st->next[i] < room ? next - st->next[i] : room;
        st->next[i] = next;
        if (meta == NULL) {
            meta = json_object();
        }
        json_object_set_new(meta, keys[i], json_stringn(text, len));
        free(text);
    }
    if (st->total >= PW_STREAM_TOTAL_MAX) {
        st->capped = true;
        if (meta == NULL) {
            meta = json_object();
        }
        json_object_set_new(meta, "pyward/output_capped", json_true());
    }
    return meta;
}
