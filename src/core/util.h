/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * util.h - allocation, a growable byte buffer, file and fd helpers.
 *
 * Out of memory: one policy, everywhere (as bubblewrap and tmux).  When an
 * allocation fails, pyward prints "pyward: out of memory" and ends at once
 * (pw_die_oom: _exit 2), on start-up and on the request path alike; no
 * caller checks for, reports or recovers from a failed allocation.  Use the
 * pw_x* allocators and pw_buf below, never a bare malloc whose NULL would
 * need a branch.  jansson allocates through pw_json_init's hooks, so a
 * NULL or -1 from json_pack, json_string or json_object_set_new means bad
 * input (a NULL or non-UTF-8 string, a wrong format), never memory.
 * CPython's own allocations are the program's: they raise MemoryError in
 * the interpreter, as before.  In a sandboxed child the request's
 * RLIMIT_AS is in place while user code runs; the C code that runs then
 * (the audit hook) does not allocate, so user code that exhausts memory
 * gets MemoryError, and a child that still died here would be reported as
 * a failed run, never as a result.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/pyward.h"

/* Allocators that never return NULL: they call pw_die_oom() instead. */
void *pw_xmalloc(size_t n);
void *pw_xcalloc(size_t count, size_t size);
void *pw_xrealloc(void *p, size_t n);
char *pw_xstrdup(const char *s);
char *pw_xstrndup(const char *s, size_t n);
char *pw_xasprintf(const char *fmt, ...) PW_PRINTF(1, 2);

/* A growable byte buffer, always NUL-terminated after len bytes. */
struct pw_buf {
    char *data;
    size_t len;
    size_t cap;
};

void pw_buf_init(struct pw_buf *b);
void pw_buf_free(struct pw_buf *b);
/* Append (these cannot fail: out of memory ends the process). */
void pw_buf_append(struct pw_buf *b, const void *p, size_t n);
void pw_buf_printf(struct pw_buf *b, const char *fmt, ...) PW_PRINTF(2, 3);
/* TEXT appended to B with every FROM in it replaced by TO. */
void pw_buf_replace_all(struct pw_buf *b, const char *text, const char *from,
                        const char *to);
/* The LEN bytes of TEXT appended to B, each line that starts with FROM
 * followed by ":" and a digit (a warning's "FILE:LINE: ...") starting
 * with TO instead.  *LINE_START: TEXT begins a line; set for the next
 * piece of the same stream. */
void pw_buf_rename_lines(struct pw_buf *b, const char *text, size_t len,
                         const char *from, const char *to, bool *line_start);
/* Hand the data to the caller (owned, NUL-terminated, never NULL); the
 * buffer is reset. */
char *pw_buf_take(struct pw_buf *b, size_t *len);

/* Read a whole fd or file, at most MAX bytes (0: no limit).  Returns 0 and
 * fills B, or -1 with ERR set (file larger than MAX is an error). */
int pw_read_fd(int fd, size_t max, struct pw_buf *b, struct pw_error *err);
int pw_read_file(const char *path, size_t max, struct pw_buf *b,
                 struct pw_error *err);
/* Write all N bytes, retrying on EINTR and short writes. */
int pw_write_all(int fd, const void *p, size_t n);

/* Fd passing over a Unix socket (SCM_RIGHTS), at most PW_FDS_MAX per
 * message.  Send LEN bytes of DATA with NFDS borrowed FDS: 0 or -1.
 * Receive up to LEN bytes (FLAGS for recvmsg): the fds that come with them
 * are appended to FDS (owned by the caller; *NFDS counts them, up to MAX,
 * the rest are closed).  Returns recvmsg's result. */
#define PW_FDS_MAX 8
int pw_send_fds(int sock, const void *data, size_t len, const int *fds,
                size_t nfds);
ssize_t pw_recv_fds(int sock, void *buf, size_t len, int *fds, size_t max,
                    size_t *nfds, int flags);

int pw_set_cloexec(int fd, bool on);
int pw_set_nonblock(int fd, bool on);

/* The length of the first LEN bytes of S cut to at most MAX bytes on a
 * UTF-8 character boundary (never inside a character). */
size_t pw_utf8_cut(const char *s, size_t len, size_t max);

/* Monotonic clock in seconds. */
double pw_now(void);

/* Parse "128m", "1g", "512k", "1048576" (bytes).  -1 on error. */
long long pw_parse_size(const char *s);

/* True if PATH is an existing directory. */
bool pw_is_dir(const char *path);

/* Directory that holds the running executable (owned), or NULL. */
char *pw_exe_dir(void);
