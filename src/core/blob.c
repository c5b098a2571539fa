/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * blob.c - files kept open until a reply sends them, and their
 * placeholders in JSON trees.
 *
 * A placeholder is "pwblob-NONCE-SLOT-SECRET" (token.h): NONCE the
 * process's, SLOT the blob's place in the table of live blobs, SECRET
 * 128 random bits of its own.  A string
 * counts as one only if all of it matches a blob still alive, so a
 * program printing that shape, or a client who saw one token, cannot
 * name another blob.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/base64.h"
#include "core/blob.h"
#include "core/joined.h"
#include "core/log.h"
#include "core/token.h"
#include "core/util.h"

#define PREFIX "pwblob-"
/* Blobs open at once: a quarter of RLIMIT_NOFILE, within these. */
#define BLOBS_MIN 64
#define BLOBS_MAX 4096

struct pw_blob {
    int fd;
    unsigned refs;
    size_t slot;
    struct stat st; /* as it was when made */
    bool text;      /* a text blob: ESCAPED bytes in a JSON string */
    size_t escaped;
};

static struct pw_token_table live = {PREFIX, NULL, 0};
static size_t alive; /* blobs (open fds) there are */

struct pw_blob *
pw_blob_new(int fd, const struct stat *st)
{
    struct pw_blob *b = pw_xcalloc(1, sizeof(*b));
    b->fd = fd;
    b->refs = 1;
    b->st = *st;
    b->slot = pw_token_put(&live, b);
    alive++;
    return b;
}

bool
pw_blob_room(void)
{
    static size_t max;
    if (max == 0) {
        struct rlimit rl;
        rlim_t quarter =
            getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                ? rl.rlim_cur / 4
                : BLOBS_MAX;
        max = quarter < BLOBS_MIN   ? BLOBS_MIN
              : quarter > BLOBS_MAX ? BLOBS_MAX
                                    : (size_t)quarter;
    }
    return alive < max;
}

struct pw_blob *
pw_blob_ref(struct pw_blob *b)
{
    b->refs++;
    return b;
}

void
pw_blob_unref(struct pw_blob *b)
{
    if (b == NULL || --b->refs > 0) {
        return;
    }
    pw_token_drop(&live, b->slot);
    alive--;
    close(b->fd);
    free(b);
}

long long
pw_blob_size(const struct pw_blob *b)
{
    return (long long)b->st.st_size;
}

void
pw_blob_set_text(struct pw_blob *b, size_t escaped)
{
    b->text = true;
    b->escaped = escaped;
}

bool
pw_blob_text(const struct pw_blob *b, size_t *escaped)
{
    *escaped = b->escaped;
    return b->text;
}

json_t *
pw_blob_token(const struct pw_blob *b)
{
    return pw_token_of(&live, b->slot);
}

struct pw_blob *
pw_blob_find(const char *s, size_t len)
{
    return pw_token_find(&live, s, len);
}

int
pw_blob_pread(struct pw_blob *b, void *buf, size_t n, long long off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(b->fd, (char *)buf + got, n - got,
                          (off_t)(off + (long long)got));
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            return -1;
        }
        got += (size_t)k;
    }
    /* Written since (a later call of the same session): its time moved
     * (a write sets it before it copies, so a read it overlapped is
     * caught here too). */
    struct stat now;
    if (fstat(b->fd, &now) < 0 || now.st_size != b->st.st_size ||
        now.st_mtim.tv_sec != b->st.st_mtim.tv_sec ||
        now.st_mtim.tv_nsec != b->st.st_mtim.tv_nsec ||
        now.st_ctim.tv_sec != b->st.st_ctim.tv_sec ||
        now.st_ctim.tv_nsec != b->st.st_ctim.tv_nsec) {
        return -1;
    }
    return 0;
}

/* New reference: B's bytes in base64 (a text blob's as they are), read
 * now; NULL if they changed. */
static json_t *
blob_base64(struct pw_blob *b)
{
    size_t size = (size_t)b->st.st_size;
    unsigned char *raw = pw_xmalloc(size + 1);
    json_t *s = pw_blob_pread(b, raw, size, 0) < 0 ? NULL
                : b->text ? json_stringn((const char *)raw, size)
                          : pw_base64_json(raw, size);
    free(raw);
    return s;
}

/* Expand the placeholder V (borrowed) when it is one: *REPL gets a new
 * reference, or stays NULL.  -1 if its file could not be read. */
static int
expand_one(json_t *v, json_t **repl)
{
    *repl = NULL;
    struct pw_blob *b = json_is_string(v) ? pw_blob_find(json_string_value(v),
                                                         json_string_length(v))
                                          : NULL;
    struct pw_joined *j =
        json_is_string(v) && b == NULL
            ? pw_joined_find(json_string_value(v), json_string_length(v))
            : NULL;
    if (j != NULL) {
        size_t len;
        char *text = pw_joined_flatten(j, &len);
        *repl = json_stringn_nocheck(text, len);
        free(text);
        return *repl != NULL ? 0 : -1;
    }
    if (b == NULL) {
        return pw_blob_expand(v);
    }
    *repl = blob_base64(b);
    if (*repl == NULL) {
        *repl = json_string("");
        return -1;
    }
    return 0;
}

int
pw_blob_expand(json_t *v)
{
    int rc = 0;
    if (json_is_object(v)) {
        const char *key;
        json_t *m; /* borrowed */
        json_object_foreach(v, key, m) {
            json_t *repl;
            rc |= expand_one(m, &repl);
            if (repl != NULL) {
                json_object_set_new(v, key, repl);
            }
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m; /* borrowed */
        json_array_foreach(v, i, m) {
            json_t *repl;
            rc |= expand_one(m, &repl);
            if (repl != NULL) {
                json_array_set_new(v, i, repl);
            }
        }
    }
    return rc;
}

void
pw_blobs_add(struct pw_blobs *bs, struct pw_blob *b)
{
    bs->v = pw_xrealloc(bs->v, (bs->n + 1) * sizeof(struct pw_blob *));
    bs->v[bs->n++] = b;
}

void
pw_blobs_clear(struct pw_blobs *bs)
{
    for (size_t i = 0; i < bs->n; i++) {
        pw_blob_unref(bs->v[i]);
    }
    free(bs->v);
    bs->v = NULL;
    bs->n = 0;
}
