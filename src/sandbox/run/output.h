/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * output.h - the files a finished run left in its workspace's
 * output/ directory, read by the parent (trusted) after the child exited.
 *
 * Only regular files directly in output/ are read, each through openat()
 * relative to the directory's fd with O_NOFOLLOW, checked with fstat
 * (a symlink, a hard link, a device, a FIFO or a directory is listed and
 * refused), and kept open up to the caps (a blob, core/blob.h: its
 * bytes are read only as its reply is written; the open fd keeps a
 * tmpfs file alive after its workspace is gone): a file above the
 * per-file cap or past the total cap is listed with its size and the
 * reason, not sent.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "sandbox/os/mountns.h"

struct pw_sbx_output_caps {
    long long max_files;       /* entries listed (sent or not) */
    long long max_file_bytes;  /* a larger file is listed, not sent */
    long long max_total_bytes; /* bytes sent over all files */
    /* A session's files reported by its earlier calls (borrowed object
     * whose keys name a file's name, inode, time and size; NULL: none):
     * left out, and the object refilled with the files there now. */
    json_t *seen;
};

/*
 * New reference: a list of {name, mime_type, size, sent, reason?, data?}
 * for output/ under the directory ROOT_FD (borrowed), sorted by name;
 * "data" is the placeholder of the file's blob when sent (added to
 * BLOBS, whose references the caller drops).  *OMITTED receives the
 * number of entries beyond max_files.  An absent output/ gives [].
 */
struct pw_blobs;
json_t *pw_sbx_output_collect(int root_fd,
                              const struct pw_sbx_output_caps *caps,
                              long long *omitted, struct pw_blobs *blobs);

/*
 * The workspace tmpfs lives in the child's mount namespace only.  The
 * child's checklist hands a directory fd of it to the parent first on the
 * result channel (a Unix socket pair), so the parent can read output/
 * after the child is gone; closing that fd frees the tmpfs.
 */

struct pw_sbx_run;
/* For a finished run whose profiles allow output files: *FILES the
 * list pw_sbx_output_collect makes (a new reference), *OMITTED and
 * BLOBS; otherwise *FILES is NULL. */
void pw_sbx_output_get(const struct pw_sbx_run *r, json_t **files,
                       long long *omitted, struct pw_blobs *blobs);

/* The MIME type for NAME with its first bytes HEAD (LEN of them): PNG and
 * JPEG only when their signature matches; a static string. */
const char *pw_sbx_output_mime(const char *name, const unsigned char *head,
                               size_t len);
