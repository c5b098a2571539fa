/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * reply.h - a reply made of segments, turned into bytes only as its
 * destination takes them (reply.c): JSON text, a file's bytes in base64
 * (a blob, blob.h), a long string JSON-escaped.  Each read does a
 * bounded amount of work (one chunk: PW_BLOB_CHUNK bytes of a file, or
 * of a string), so a reply of megabytes never holds the server's loop,
 * and a reply waiting to be sent holds its files as fds, its long
 * strings once (a reference to the tree's own), and a chunk.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pw_reply;

/* Strings this long or longer go into a reply as segments of their own,
 * escaped as they are read (jansson's dump of a MiB takes milliseconds). */
#define PW_REPLY_LONG_STRING (8u * 1024)

/* The length of the N bytes of S JSON-escaped as a reply escapes a
 * string's contents (the quotes not counted). */
size_t pw_reply_escaped(const unsigned char *s, size_t n);

/* An owned, empty reply. */
struct pw_reply *pw_reply_new(void);
void pw_reply_free(struct pw_reply *r);
/* Append N bytes of S (copied). */
void pw_reply_text(struct pw_reply *r, const char *s, size_t n);
/* Append the JSON text of V (borrowed; left as it was) dumped with
 * FLAGS (pw_json_dumps), less its first SKIP bytes: each blob
 * placeholder among its strings (blob.h) becomes the file's bytes in
 * base64, each string of PW_REPLY_LONG_STRING bytes or more a segment
 * escaped as it is read.  0, or -1 (R unchanged) if it could not be made. */
int pw_reply_add_json(struct pw_reply *r, json_t *v, size_t flags,
                      size_t skip);
/* Append every segment of TAIL (taken; not yet read). */
void pw_reply_append(struct pw_reply *r, struct pw_reply *tail);
/* The length in bytes of R, not yet read (a Content-Length). */
size_t pw_reply_size(const struct pw_reply *r);
/* Up to MAX bytes of R into BUF, encoding at most one chunk: the bytes
 * written (0: R is all read). */
size_t pw_reply_read(struct pw_reply *r, char *buf, size_t max);
/* True when all of R was read. */
bool pw_reply_done(const struct pw_reply *r);
/* Bytes R holds: its text, strings and chunk not yet read in memory, and
 * its files' bytes not yet read in the files it keeps open. */
size_t pw_reply_held(const struct pw_reply *r);
/* True if a file changed after its reply was made (its bytes past that
 * point were sent as zeros: the JSON kept its announced size). */
bool pw_reply_failed(const struct pw_reply *r);
/* The text R starts with (borrowed, LEN bytes, not NUL-terminated). */
const char *pw_reply_head(const struct pw_reply *r, size_t *len);
/* All of R read into one owned string (for a command, not the loop);
 * R is freed. */
char *pw_reply_flatten(struct pw_reply *r);
