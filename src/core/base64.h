/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * base64.h - Base64 to a JSON string and back (base64.c).
 */
#pragma once

#include <jansson.h>
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
