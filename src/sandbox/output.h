/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * output.h - the files a finished run left in its workspace's
 * output/ directory, read by the parent (trusted) after the child exited.
 *
 * Only regular files directly in output/ are read, each through openat()
 * relative to the directory's fd with O_NOFOLLOW, checked with fstat
 * (a symlink, a hard link, a device, a FIFO or a directory is listed and
 * refused), and read up to the caps: a file above the per-file cap or
 * past the total cap is listed with its size and the reason, not sent.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "sandbox/mountns.h"

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
 * "data" is the file's bytes in base64 when sent.  *OMITTED receives the
 * number of entries beyond max_files.  An absent output/ gives [].
 */
json_t *pw_sbx_output_collect(int root_fd,
                              const struct pw_sbx_output_caps *caps,
                              long long *omitted);

/*
 * The workspace tmpfs lives in the child's mount namespace only.  The
 * child's checklist hands a directory fd of it to the parent first on the
 * result channel (a Unix socket pair), so the parent can read output/
 * after the child is gone; closing that fd frees the tmpfs.
 */

/* Child, before any user code: send an fd of the current directory (the
 * workspace) over SOCK.  0 or -1 with errno. */
int pw_sbx_workspace_send(int sock);

struct pw_zygote;
/* True if Z's runs get a private tmpfs workspace (with CAPS, a run's
 * enum pw_cap bits: one whose profiles let it write files; the others
 * cannot write: see pw_sbx_ws_kind).  Only
 * then does the checklist send its fd, and the parent accept one. */
bool pw_sbx_workspace_tmpfs(const struct pw_zygote *z, unsigned caps);
/* What the scratch directory of a run with CAPS is in its view: the
 * workspace tmpfs, an empty read-only directory (no file caps, mount
 * namespace active), or the host directory. */
enum pw_sbx_ws pw_sbx_ws_kind(const struct pw_zygote *z, unsigned caps);
/* False when a run with CAPS needs no host directory: its scratch path
 * lies under a hidden directory and the view makes it (a tmpfs or an
 * empty directory). */
bool pw_sbx_scratch_on_host(const struct pw_zygote *z, unsigned caps);
/* Add the "workspace" layer entry to OBJ (doctor, get_sandbox_info). */
int pw_sbx_workspace_json(const struct pw_zygote *z, json_t *obj);

struct pw_sbx_run;
/* Add "files" and "files_omitted" to RESULT for a finished run whose
 * profiles allow output files. */
void pw_sbx_output_add(const struct pw_sbx_run *r, json_t *result);

/* The MIME type for NAME with its first bytes HEAD (LEN of them): PNG and
 * JPEG only when their signature matches; a static string. */
const char *pw_sbx_output_mime(const char *name, const unsigned char *head,
                               size_t len);

/* Base64 (RFC 4648, padded) of N bytes: a new string. */
json_t *pw_base64_json(const unsigned char *p, size_t n);
/* Decode padded base64 TEXT into B.  0, or -1 if TEXT is not base64. */
struct pw_buf;
int pw_base64_decode(const char *text, struct pw_buf *b);
