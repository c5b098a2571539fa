/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * joined.h - a string made of parts, kept as its parts until a reply
 * sends it (joined.c): literal text, and views of jansson strings
 * (referenced, not copied) that appear as they are or JSON-escaped with
 * ensure_ascii (as jansson's JSON_ENSURE_ASCII writes them).  A JSON
 * tree carries a placeholder string for it (as blob.h does: a process
 * nonce and a secret of its own); reply.c escapes it a chunk at a time,
 * so a text block holding a run's megabyte of output is never made in
 * one step of the server's loop.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct pw_joined;

enum pw_joined_kind {
    PW_JOINED_TEXT,  /* literal bytes (copied) */
    PW_JOINED_RAW,   /* a view, as it is */
    PW_JOINED_ASCII, /* a view, JSON-escaped with ensure_ascii */
};

struct pw_joined_part {
    enum pw_joined_kind kind;
    const unsigned char *s; /* TEXT: owned; views: in STR */
    size_t n;
    json_t *str; /* views: a reference */
};

/* A new joined text, empty.  It lives while its placeholder
 * (pw_joined_token) is held by a JSON tree, or a reference
 * (pw_joined_ref) by a reply. */
struct pw_joined *pw_joined_new(void);
/* Append N bytes of S (copied). */
void pw_joined_text(struct pw_joined *j, const char *s, size_t n);
/* Append N bytes of the string STR (borrowed; referenced) from OFF, as
 * KIND (RAW or ASCII; OFF and N on UTF-8 character bounds). */
void pw_joined_view(struct pw_joined *j, json_t *str, size_t off, size_t n,
                    enum pw_joined_kind kind);
/* Borrowed: the placeholder string standing for J (one per J). */
json_t *pw_joined_token(struct pw_joined *j);
/* Borrowed: the live joined text the string S (LEN bytes) stands for,
 * or NULL. */
struct pw_joined *pw_joined_find(const char *s, size_t len);
struct pw_joined *pw_joined_ref(struct pw_joined *j);
void pw_joined_unref(struct pw_joined *j);
/* J's parts (borrowed, *N of them). */
const struct pw_joined_part *pw_joined_parts(const struct pw_joined *j,
                                             size_t *n);
/* The ensure_ascii JSON escape of the UTF-8 character at S[*I] (of N
 * bytes) into OUT (room for 12); *I moves past it; its length. */
size_t pw_joined_escape_char(const unsigned char *s, size_t n, size_t *i,
                             char *out);
/* The bytes of UTF-8 text S (N bytes) once escaped with ensure_ascii,
 * then escaped again as a reply escapes a string's contents (after the
 * first, only '\\' and '"' change). */
size_t pw_joined_escaped2(const unsigned char *s, size_t n);
/* Owned: all of J's text, *LEN bytes (for a command, not the loop). */
char *pw_joined_flatten(const struct pw_joined *j, size_t *len);
