/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * base64.h - Base64 to a JSON string and back (base64.c).
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The length of the base64 text of N bytes. */
#define PW_BASE64_LEN(n) (((size_t)(n) + 2) / 3 * 4)

/* Write the base64 text of N bytes into OUT (PW_BASE64_LEN(N) bytes, no
 * NUL); returns its length. */
size_t pw_base64_encode(const unsigned char *p, size_t n, char *out);
/* Base64 (RFC 4648, padded) of N bytes: a new string. */
json_t *pw_base64_json(const unsigned char *p, size_t n);
/* Decode padded base64 TEXT into B.  0, or -1 if TEXT is not base64. */
struct pw_buf;
int pw_base64_decode(const char *text, struct pw_buf *b);

/* The same decoding one character at a time, for text that comes in
 * pieces: the quantum not yet complete, and whether the padded one (the
 * last there may be) was seen. */
struct pw_base64_dec {
    unsigned char q[4];
    unsigned char n;
    bool over; /* a padded quantum ended the text */
};
/* Take C: the bytes it completes into OUT (0 to 3), or -1 if the text
 * can no longer be base64. */
int pw_base64_dec_char(struct pw_base64_dec *d, char c, unsigned char out[3]);
/* Take the N characters of S (as pw_base64_dec_char each, whole quanta
 * of the alphabet at a time where it can): the bytes made into OUT (room
 * for N / 4 * 3 + 3), or -1 if the text can no longer be base64. */
long pw_base64_dec_some(struct pw_base64_dec *d, const char *s, size_t n,
                        unsigned char *out);
/* The text is over: 0 if it was base64 (whole quanta), else -1. */
int pw_base64_dec_end(const struct pw_base64_dec *d);
