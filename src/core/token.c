/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * token.c - placeholders of blobs and joined texts: the process's
 * nonce, random secrets, the tables of the objects placeholders name, a
 * placeholder made and read back.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/log.h"
#include "core/token.h"
#include "core/util.h"

static char nonce[PW_TOKEN_HEX + 1];

void
pw_token_random_hex(char *out, size_t n)
{
    unsigned char raw[64];
    size_t got = 0;
    if (n > sizeof(raw)) {
        n = sizeof(raw);
    }
    while (got < n) {
        ssize_t k = getrandom(raw + got, n - got, 0);
        if (k < 0 && errno != EINTR) {
            pw_errorf("getrandom: %s", strerror(errno));
            abort(); /* no secret: no placeholder may be made */
        }
        got += k > 0 ? (size_t)k : 0;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    }
}

const char *
pw_token_nonce(void)
{
    if (nonce[0] == '\0') {
        pw_token_random_hex(nonce, PW_TOKEN_HEX / 2);
    }
    return nonce;
}

size_t
pw_token_put(struct pw_token_table *t, void *item)
{
    size_t i = 0;
    while (i < t->n && t->v[i].item != NULL) {
        i++;
    }
    if (i == t->n) {
        t->v = pw_xrealloc(t->v, (t->n + 16) * sizeof(*t->v));
        memset(t->v + t->n, 0, 16 * sizeof(*t->v));
        t->n += 16;
    }
    t->v[i].item = item;
    pw_token_random_hex(t->v[i].secret, PW_TOKEN_HEX / 2);
    (void)pw_token_nonce();
    return i;
}

void
pw_token_drop(struct pw_token_table *t, size_t slot)
{
    t->v[slot].item = NULL;
}

json_t *
pw_token_of(const struct pw_token_table *t, size_t slot)
{
    char text[32 + 2 * PW_TOKEN_HEX + 32];
    snprintf(text, sizeof(text), "%s%s-%zu-%s", t->prefix, pw_token_nonce(),
             slot, t->v[slot].secret);
    return json_string(text);
}

void *
pw_token_find(const struct pw_token_table *t, const char *s, size_t len)
{
    size_t pre = strlen(t->prefix);
    if (nonce[0] == '\0' || len < pre + PW_TOKEN_HEX + 3 + PW_TOKEN_HEX ||
        len > pre + PW_TOKEN_HEX + 24 + PW_TOKEN_HEX ||
        memcmp(s, t->prefix, pre) != 0 ||
        memcmp(s + pre, nonce, PW_TOKEN_HEX) != 0 ||
        s[pre + PW_TOKEN_HEX] != '-') {
        return NULL;
    }
    const char *p = s + pre + PW_TOKEN_HEX + 1;
    const char *end = s + len;
    const char *digits = p;
    size_t slot = 0;
    while (p < end && *p >= '0' && *p <= '9' && p - digits < 12) {
        slot = slot * 10 + (size_t)(*p++ - '0');
    }
    if (p == digits || p >= end || *p != '-' ||
        (size_t)(end - p - 1) != PW_TOKEN_HEX || slot >= t->n ||
        t->v[slot].item == NULL ||
        memcmp(p + 1, t->v[slot].secret, PW_TOKEN_HEX) != 0) {
        return NULL;
    }
    return t->v[slot].item;
}
