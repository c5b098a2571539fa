/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * blob.h - a file's bytes kept as an open fd until a reply sends them
 * (blob.c): a run's output files are not read into memory; a JSON tree
 * carries a placeholder string for each, which only this process can
 * make (a random nonce made at its first use, and a secret per blob).
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct pw_blob;

/* Bytes read from a blob at a time (a multiple of 3: its base64 is
 * 4/3 of it, 64 KiB). */
#define PW_BLOB_CHUNK (48u * 1024)

/* Returns an owned blob (one reference) of the regular file FD (taken),
 * fstat'ed as ST: its size, and the times a change would move. */
struct pw_blob *pw_blob_new(int fd, const struct stat *st);
/* True if another blob may be made: the blobs alive hold fds up to a
 * quarter of RLIMIT_NOFILE (64 to 4096), replies not yet written being
 * the server's to bound, not the kernel's. */
bool pw_blob_room(void);
/* Another reference to B (returned). */
struct pw_blob *pw_blob_ref(struct pw_blob *b);
/* Drop a reference; the fd is closed with the last.  NULL is ignored. */
void pw_blob_unref(struct pw_blob *b);
long long pw_blob_size(const struct pw_blob *b);
/* Make B a text blob: its bytes (valid UTF-8, checked by its maker) go
 * into a reply as a JSON string's contents, ESCAPED bytes long once
 * escaped (pw_reply_escaped), rather than in base64. */
void pw_blob_set_text(struct pw_blob *b, size_t escaped);
/* True if B is a text blob; *ESCAPED its escaped length. */
bool pw_blob_text(const struct pw_blob *b, size_t *escaped);
/* New reference: the placeholder string standing for B in a JSON tree
 * (its bytes in base64 where a reply is made, pw_reply_add_json). */
json_t *pw_blob_token(const struct pw_blob *b);
/* Borrowed: the live blob the string S (LEN bytes) stands for, or NULL. */
struct pw_blob *pw_blob_find(const char *s, size_t len);
/* Read N bytes of B at OFF into BUF.  0, or -1 if the file is not as it
 * was when B was made (shorter, or written since). */
int pw_blob_pread(struct pw_blob *b, void *buf, size_t n, long long off);
/* Replace every blob placeholder among the strings of V (an array or
 * object, walked) by the file's bytes in base64 (a text blob's: as a
 * string), read now: for a
 * command, not for the server's loop.  0, or -1 if one could not be
 * read (its string is then empty). */
int pw_blob_expand(json_t *v);
/* The blobs a result holds (a reference each). */
struct pw_blobs {
    struct pw_blob **v;
    size_t n;
};

/* Add B (its reference taken) to BS. */
void pw_blobs_add(struct pw_blobs *bs, struct pw_blob *b);
/* Drop every reference of BS; BS is empty. */
void pw_blobs_clear(struct pw_blobs *bs);
