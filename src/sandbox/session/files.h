/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * session/files.h - a session's workspace files from the server's side
 * (files.c): write, read and list them between calls.
 */
#pragma once

#include <sys/stat.h>

#include <jansson.h>
#include <stddef.h>

#include "core/pyward.h"

struct pw_sbx_session;

/* The most bytes write_file puts and read_file returns; the most entries
 * list_files returns. */
#define PW_SBX_SESSION_FILE_MAX (8 * 1024 * 1024)
#define PW_SBX_SESSION_LIST_MAX 1000
#define PW_SBX_SESSION_PATH_MAX 1024

/*
 * PATH (relative to the session's workspace, under the rules of the
 * program's own paths: no absolute path, no "..", no symbolic link, no
 * other file system on the way; its directories must exist) made a
 * regular file holding LEN bytes of DATA, written as the workspace's
 * owner.  Refused while a call runs, for a session without a workspace of
 * its own (profiles that do not write files), past
 * PW_SBX_SESSION_FILE_MAX or the workspace's room.  0, or -1 with ERR.
 */
int pw_sbx_session_write_file(struct pw_sbx_session *s, const char *path,
                              const char *data, size_t len,
                              struct pw_error *err);
/* The bytes of the regular file PATH (same rules): owned, *LEN bytes
 * (NUL after them), or NULL with ERR (more than PW_SBX_SESSION_FILE_MAX
 * bytes is refused). */
char *pw_sbx_session_read_file(struct pw_sbx_session *s, const char *path,
                               size_t *len, struct pw_error *err);
/* The regular file PATH (same rules, same caps) opened for reading: an
 * fd and *ST, or -1 with ERR. */
int pw_sbx_session_open_read(struct pw_sbx_session *s, const char *path,
                             struct stat *st, struct pw_error *err);

/* A write_file in steps: its bytes go into a new temporary file beside
 * PATH (DIR: its directory, FD: the file, TMP: its name there), renamed
 * over PATH at the end; a write dropped leaves nothing. */
struct pw_sbx_wfile {
    int dir, fd;
    char tmp[48];
};
/* Start writing PATH (checks as pw_sbx_session_write_file; LEN bytes to
 * come).  0, or -1 with ERR (W holds nothing). */
int pw_sbx_session_write_begin(struct pw_sbx_session *s, const char *path,
                               size_t len, struct pw_sbx_wfile *w,
                               struct pw_error *err);
/* N more bytes of DATA into W (for PATH's errors).  0, or -1 with ERR. */
int pw_sbx_session_write_some(struct pw_sbx_wfile *w, const char *path,
                              const void *data, size_t n,
                              struct pw_error *err);
/* The file written made PATH (its checks as pw_sbx_session_write_file's,
 * now); W is done with either way.  0, or -1 with ERR. */
int pw_sbx_session_write_end(struct pw_sbx_session *s, const char *path,
                             struct pw_sbx_wfile *w, struct pw_error *err);
/* Drop W: its temporary file removed, its fds closed. */
void pw_sbx_session_write_drop(struct pw_sbx_wfile *w);

/* New reference: the directory PATH ("" or ".": the workspace) as
 * [{name, type: file|directory|symlink|other, size}], sorted by name, at
 * most PW_SBX_SESSION_LIST_MAX (*MORE: how many were left out), or NULL
 * with ERR. */
json_t *pw_sbx_session_list_files(struct pw_sbx_session *s, const char *path,
                                  size_t *more, struct pw_error *err);
