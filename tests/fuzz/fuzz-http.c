/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz-http.c - what pyward reads of HTTP requests itself (http_req.c,
 * tokens.c): the bearer token, the token file, the Origin, Content-Type
 * and Accept, the --http address, and (from the Origin line) the value of
 * an Mcp-Param-* header.
 *
 * The input's first five lines are an Authorization header, an Origin, a
 * Content-Type, an Accept and a HOST:PORT (read as a Host header too); the
 * rest is a token file.
 * Besides not crashing, the functions must agree with themselves: every
 * token parsed from the file matches the set, a bearer token lies inside
 * its header, a parsed address is cut from the text it came from, a
 * header value without the base64 markers carries itself, and a Host is
 * accepted only with the listener's port.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "server/http_req.h"
#include "core/util.h"

#define FIELDS 5

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    return 0;
}

static void
check_tokens(const char *text, size_t len, const char *auth)
{
    struct pw_tokens t;
    pw_tokens_parse(&t, text, len);
    for (size_t i = 0; i < t.n; i++) {
        size_t which = t.n;
        if (t.v[i][0] == '\0' || strchr(t.v[i], '\n') != NULL ||
            !pw_tokens_match(&t, t.v[i], strlen(t.v[i]), &which) ||
            which > i) {
            abort();
        }
        /* Its name: never empty, of the allowed characters only. */
        const char *nm = t.names[i];
        if (nm[0] == '\0' || strlen(nm) > PW_TOKEN_NAME_MAX + 6 ||
            strspn(nm, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                       "0123456789._@-") != strlen(nm)) {
            abort();
        }
    }
    const char *tok = NULL;
    size_t tlen = 0;
    if (pw_http_bearer(auth, &tok, &tlen)) {
        if (tok < auth || tok + tlen > auth + strlen(auth) || tlen == 0) {
            abort();
        }
        (void)pw_tokens_match(&t, tok, tlen, NULL);
    }
    pw_tokens_free(&t);
}

/* VALUE read as an Mcp-Param-* header: a plain value carries itself. */
static void
check_param(const char *value)
{
    struct pw_buf out;
    pw_buf_init(&out);
    size_t n = strlen(value);
    bool marked = strncmp(value, "=?base64?", 9) == 0 && n >= 11 &&
                  strcmp(value + n - 2, "?=") == 0;
    if (pw_http_param_value(value, &out) == 0 && !marked &&
        (out.len != n || (n > 0 && memcmp(out.data, value, n) != 0))) {
        abort();
    }
    pw_buf_free(&out);
}

/* VALUE read as a Host header: a list of names only adds to what the
 * listener's own names accept, and a port it accepts is the listener's. */
static void
check_host(const char *value)
{
    char *hosts[] = {"pyward.example", "proxy.example:8443", NULL};
    bool mine = pw_http_host_allowed(value, 8080, NULL);
    const char *colon = strrchr(value, ':');
    if (mine && !pw_http_host_allowed(value, 8080, hosts)) {
        abort();
    }
    if (mine && colon != NULL && strchr(colon, ']') == NULL &&
        strcmp(colon, ":8080") != 0) {
        abort();
    }
}

static void
check_headers(char **f)
{
    check_param(f[1]);
    char *allowed[] = {"https://app.example", NULL};
    (void)pw_http_origin_allowed(f[1], true, allowed);
    (void)pw_http_origin_allowed(f[1], false, NULL);
    (void)pw_http_media_is(f[2], "application/json");
    bool json = pw_http_accepts(f[3], "application/json", false);
    if (pw_http_accepts(f[3], "application/json", true) && !json) {
        abort(); /* naming the type itself is a way of admitting it */
    }
    char host[256];
    unsigned port = 0;
    if (pw_http_parse_listen(f[4], host, sizeof(host), &port) == 0 &&
        (port > 65535 || strstr(f[4], host) == NULL)) {
        abort();
    }
    (void)pw_http_host_is_loopback(f[4], strlen(f[4]));
    check_host(f[4]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = pw_xstrndup((const char *)data, size);
    size_t len = strlen(copy); /* up to the first NUL */
    char *f[FIELDS];
    char *p = copy;
    for (int i = 0; i < FIELDS; i++) {
        f[i] = p;
        char *nl = strchr(p, '\n');
        if (nl != NULL) {
            *nl = '\0';
            p = nl + 1;
        } else {
            p += strlen(p);
        }
    }
    check_headers(f);
    check_tokens(p, len - (size_t)(p - copy), f[0]);
    free(copy);
    return 0;
}
