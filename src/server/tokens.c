/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tokens.c - the bearer tokens of a token file, compared in constant
 * time (see tokens.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/sha256.h"
#include "core/util.h"
#include "server/tokens.h"

static bool
is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The name of a token: NAME[0..LEN) cleaned, or (LEN 0) the token's
 * digest's start. */
static char *
token_name(const char *name, size_t len, const char *tok, size_t tok_len)
{
    if (len == 0) {
        char hex[2 * PW_SHA256_LEN + 1];
        pw_sha256_hex(tok, tok_len, hex);
        char *out = pw_xmalloc(sizeof("token-") + 12);
        memcpy(out, "token-", 6);
        memcpy(out + 6, hex, 12);
        out[18] = '\0';
        return out;
    }
    len = len > PW_TOKEN_NAME_MAX ? PW_TOKEN_NAME_MAX : len;
    char *out = pw_xstrndup(name, len);
    for (size_t i = 0; i < len; i++) {
        char c = out[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '@' ||
                  c == '-';
        out[i] = ok ? c : '_';
    }
    return out;
}

void
pw_tokens_parse(struct pw_tokens *t, const char *text, size_t len)
{
    t->v = NULL;
    t->names = NULL;
    t->n = 0;
    size_t cap = 0;
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && text[i] != '\n') {
            i++;
        }
        size_t end = i++;
        while (start < end && is_space(text[start])) {
            start++;
        }
        while (end > start && is_space(text[end - 1])) {
            end--;
        }
        if (end == start || text[start] == '#' ||
            memchr(text + start, '\0', end - start) != NULL) {
            continue;
        }
        if (t->n == cap) {
            cap = cap ? cap * 2 : 4;
            t->v = pw_xrealloc(t->v, cap * sizeof(char *));
            t->names = pw_xrealloc(t->names, cap * sizeof(char *));
        }
        /* "NAME TOKEN": a bearer token holds no blank. */
        size_t name_end = start;
        while (name_end < end && !is_space(text[name_end])) {
            name_end++;
        }
        size_t tok = name_end;
        while (tok < end && is_space(text[tok])) {
            tok++;
        }
        if (tok == end) {
            name_end = tok = start; /* the token alone */
        }
        t->v[t->n] = pw_xstrndup(text + tok, end - tok);
        t->names[t->n] =
            token_name(text + start, name_end - start, text + tok, end - tok);
        t->n++;
    }
}

void
pw_tokens_free(struct pw_tokens *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i]);
        free(t->names[i]);
    }
    free(t->v);
    free(t->names);
    t->v = NULL;
    t->names = NULL;
    t->names = NULL;
    t->n = 0;
}

/* 0 when A[0..AL) equals B (NUL-terminated, not empty), compared over
 * AL bytes whatever they hold. */
static unsigned
ct_diff(const char *a, size_t al, const char *b)
{
    size_t bl = strlen(b);
    unsigned diff = al != bl;
    for (size_t i = 0; i < al; i++) {
        diff |= (unsigned char)a[i] ^ (unsigned char)b[i % bl];
    }
    return diff;
}

bool
pw_tokens_match(const struct pw_tokens *t, const char *tok, size_t len,
                size_t *which)
{
    bool found = false;
    for (size_t i = 0; i < t->n; i++) {
        bool eq = len > 0 && ct_diff(tok, len, t->v[i]) == 0;
        if (eq && !found && which != NULL) {
            *which = i;
        }
        found |= eq;
    }
    return found;
}
