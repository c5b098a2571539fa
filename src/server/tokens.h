/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tokens.h - bearer tokens (tokens.c): read from a token file, compared
 * in constant time.  Pure functions of their text (fuzzed by
 * tests/fuzz/fuzz-http.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Bearer tokens, one a line of a file ('#' lines and blanks skipped): a
 * line "NAME TOKEN" names its token (what the event log and /metrics
 * call its client: never the token itself); a token alone is named
 * "token-" and the first 12 hex digits of its SHA-256. */
struct pw_tokens {
    char **v;     /* owned */
    char **names; /* owned, one per token */
    size_t n;
};

/* A token's name is at most this long (longer ones are cut); its bytes
 * are letters, digits and "._@-" (others become '_'). */
#define PW_TOKEN_NAME_MAX 64

/* Fill T from TEXT[0..LEN) (T is overwritten, not freed). */
void pw_tokens_parse(struct pw_tokens *t, const char *text, size_t len);
void pw_tokens_free(struct pw_tokens *t);
/* True if TOK[0..LEN) equals one of T's tokens; every token is compared
 * in time that depends on the lengths only.  *WHICH: its index. */
bool pw_tokens_match(const struct pw_tokens *t, const char *tok, size_t len,
                     size_t *which);
