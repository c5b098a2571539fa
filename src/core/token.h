/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * token.h - the placeholders a JSON tree carries for what a reply
 * writes later (token.c): "PREFIX-NONCE-SLOT-SECRET", NONCE this
 * process's (random, made at its first use: in the server, after the
 * zygote was forked, so no run inherits it), SLOT the object's place in
 * its kind's table (struct pw_token_table), SECRET random digits of its
 * own.  A string names an object only if all of it is the placeholder of
 * one still in the table, so neither a program printing that shape nor
 * a client who saw one placeholder can name another.
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
struct pw_token_slot {
    void *item; /* NULL: free */
    char secret[PW_TOKEN_HEX + 1];
};

/* The objects of one kind that have placeholders, by slot (a static
 * table of the kind's file: {PREFIX}). */
struct pw_token_table {
    const char *prefix;
    struct pw_token_slot *v;
    size_t n;
};

/* ITEM put in a free slot of T with a new secret: its slot. */
size_t pw_token_put(struct pw_token_table *t, void *item);
/* SLOT of T freed. */
void pw_token_drop(struct pw_token_table *t, size_t slot);
/* New reference: the placeholder of SLOT of T. */
json_t *pw_token_of(const struct pw_token_table *t, size_t slot);
/* The item of T whose placeholder is all of S (LEN bytes), or NULL. */
void *pw_token_find(const struct pw_token_table *t, const char *s, size_t len);
