/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * token.h - the placeholders a JSON tree carries for what a reply
 * writes later (token.c): "PREFIX-NONCE-SLOT-SECRET", NONCE this
 * process's (random, made at its first use: in the server, after the
 * zygote was forked, so no run inherits it), SLOT a place in its
 * owner's table, SECRET random digits of the object's own.  blob.c and
 * joined.c each keep the table and secrets of their placeholders.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Hex digits of a nonce and of a secret. */
#define PW_TOKEN_HEX 32

/* Random hex digits into OUT (2 * N of them, N at most 64, then a NUL);
 * aborts if the kernel gives no random bytes (no secret: no
 * placeholder may be made). */
void pw_token_random_hex(char *out, size_t n);
/* This process's nonce (PW_TOKEN_HEX digits), made at its first use. */
const char *pw_token_nonce(void);
/* New reference: the placeholder PREFIX-NONCE-SLOT-SECRET. */
json_t *pw_token_new(const char *prefix, size_t slot, const char *secret);
/* True if all of S (LEN bytes) has the shape PREFIX-NONCE-SLOT-SECRET
 * with this process's nonce: *SLOT its slot, *SECRET its PW_TOKEN_HEX
 * secret digits (in S), for the owner to check against its table. */
bool pw_token_parse(const char *s, size_t len, const char *prefix,
                    size_t *slot, const char **secret);
