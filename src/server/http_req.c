/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * http_req.c - the bearer token, Origin, media types, Mcp-Param-*
 * values and addresses read from HTTP requests and options (see
 * http_req.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base64.h"
#include "core/util.h"
#include "server/http_req.h"

#define B64_OPEN  "=?base64?"
#define B64_CLOSE "?="

static bool
is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

bool
pw_http_bearer(const char *header, const char **tok, size_t *len)
{
    if (header == NULL) {
        return false;
    }
    while (is_space(*header)) {
        header++;
    }
    if (strncasecmp(header, "Bearer", 6) != 0 || !is_space(header[6])) {
        return false;
    }
    const char *p = header + 7;
    while (is_space(*p)) {
        p++;
    }
    size_t n = strlen(p);
    while (n > 0 && is_space(p[n - 1])) {
        n--;
    }
    if (n == 0 || memchr(p, ' ', n) != NULL) {
        return false;
    }
    *tok = p;
    *len = n;
    return true;
}

/* True if S[0..LEN) is a dotted quad starting with 127. */
static bool
is_127(const char *s, size_t len)
{
    int dots = 0;
    unsigned part = 0;
    size_t digits = 0;
    if (len < 4 || strncmp(s, "127.", 4) != 0) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '.') {
            if (digits == 0 || ++dots > 3) {
                return false;
            }
            part = 0;
            digits = 0;
        } else if (s[i] >= '0' && s[i] <= '9' && digits < 3) {
            part = part * 10 + (unsigned)(s[i] - '0');
            digits++;
            if (part > 255) {
                return false;
            }
        } else {
            return false;
        }
    }
    return dots == 3 && digits > 0;
}

bool
pw_http_host_is_loopback(const char *host, size_t len)
{
    if (len >= 2 && host[0] == '[' && host[len - 1] == ']') {
        host++;
        len -= 2;
    }
    return (len == 9 && strncasecmp(host, "localhost", 9) == 0) ||
           (len == 3 && strncmp(host, "::1", 3) == 0) || is_127(host, len);
}

/* The host of ORIGIN "scheme://host[:port]": *LEN bytes at the result,
 * or NULL when it is not an http(s) origin. */
static const char *
origin_host(const char *origin, size_t *len)
{
    const char *p = NULL;
    if (strncasecmp(origin, "http://", 7) == 0) {
        p = origin + 7;
    } else if (strncasecmp(origin, "https://", 8) == 0) {
        p = origin + 8;
    } else {
        return NULL;
    }
    const char *end = p[0] == '[' ? strchr(p, ']') : NULL;
    end = end != NULL ? end + 1 : p + strcspn(p, ":/");
    const char *rest =
        end + (*end == ':' ? 1 + strspn(end + 1, "0123456789") : 0);
    if (*rest != '\0' && strcmp(rest, "/") != 0) {
        return NULL;
    }
    *len = (size_t)(end - p);
    return p;
}

bool
pw_http_origin_allowed(const char *origin, bool loopback, char *const *allowed)
{
    for (size_t i = 0; allowed != NULL && allowed[i] != NULL; i++) {
        if (strcasecmp(origin, allowed[i]) == 0) {
            return true;
        }
    }
    size_t len = 0;
    const char *host = loopback ? origin_host(origin, &len) : NULL;
    return host != NULL && pw_http_host_is_loopback(host, len);
}

/* Split the Host value HOST into its name (*NLEN bytes at HOST, IPv6 in
 * brackets) and *PORT (0 when absent).  False when it is not a host. */
static bool
split_host(const char *host, size_t *nlen, unsigned *port)
{
    const char *end = host[0] == '[' ? strchr(host, ']') : NULL;
    end = end != NULL ? end + 1 : host + strcspn(host, ":");
    *nlen = (size_t)(end - host);
    *port = 0;
    if (*end == '\0') {
        return *nlen > 0;
    }
    size_t digits = strspn(end + 1, "0123456789");
    if (*end != ':' || digits == 0 || digits > 5 || end[1] == '0' ||
        end[1 + digits] != '\0') {
        return false;
    }
    *port = (unsigned)strtoul(end + 1, NULL, 10);
    return *nlen > 0 && *port > 0 && *port <= 65535;
}

bool
pw_http_host_allowed(const char *host, unsigned port, char *const *allowed)
{
    size_t nlen = 0;
    unsigned p = 0;
    if (!split_host(host, &nlen, &p)) {
        return false;
    }
    for (size_t i = 0; allowed != NULL && allowed[i] != NULL; i++) {
        const char *a = allowed[i];
        if (strcasecmp(host, a) == 0 ||
            (strchr(a + (a[0] == '[' ? strcspn(a, "]") : 0), ':') == NULL &&
             strlen(a) == nlen && strncasecmp(host, a, nlen) == 0)) {
            return true;
        }
    }
    return pw_http_host_is_loopback(host, nlen) && (p == 0 || p == port);
}

/* Compare the media type at P (up to ';' or ',') with TYPE; *END gets
 * where it stops. */
static bool
media_eq(const char *p, const char *type, const char **end)
{
    while (is_space(*p)) {
        p++;
    }
    size_t n = strcspn(p, ";,");
    *end = p + n;
    while (n > 0 && is_space(p[n - 1])) {
        n--;
    }
    return n == strlen(type) && strncasecmp(p, type, n) == 0;
}

bool
pw_http_media_is(const char *value, const char *type)
{
    const char *end = NULL;
    return value != NULL && media_eq(value, type, &end) && *end != ',';
}

/* The q of the parameters at P (up to ','): 1 when absent. */
static double
quality(const char *p)
{
    while (*p == ';') {
        p++;
        while (is_space(*p)) {
            p++;
        }
        if ((p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
            return strtod(p + 2, NULL);
        }
        p += strcspn(p, ";,");
    }
    return 1;
}

bool
pw_http_accepts(const char *value, const char *type, bool explicit)
{
    if (value == NULL) {
        return false;
    }
    char wild[64];
    size_t slash = strcspn(type, "/");
    snprintf(wild, sizeof(wild), "%.*s/*", (int)slash, type);
    const char *p = value;
    while (*p != '\0') {
        const char *end = NULL;
        bool hit = media_eq(p, type, &end) ||
                   (!explicit &&
                    (media_eq(p, wild, &end) || media_eq(p, "*/*", &end)));
        if (hit && quality(end) > 0) {
            return true;
        }
        p = end + strcspn(end, ",");
        p += *p == ',';
    }
    return false;
}

int
pw_http_param_value(const char *value, struct pw_buf *out)
{
    size_t n = strlen(value);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)value[i];
        if ((c < 0x20 && c != '\t') || c > 0x7e) {
            return -1;
        }
    }
    size_t open = strlen(B64_OPEN);
    size_t close = strlen(B64_CLOSE);
    if (n < open + close || strncmp(value, B64_OPEN, open) != 0 ||
        strcmp(value + n - close, B64_CLOSE) != 0) {
        pw_buf_append(out, value, n);
        return 0;
    }
    char *b64 = pw_xstrndup(value + open, n - open - close);
    int rc = pw_base64_decode(b64, out);
    free(b64);
    return rc;
}

int
pw_http_parse_listen(const char *spec, char *host, size_t hostlen,
                     unsigned *port)
{
    const char *colon = strrchr(spec, ':');
    if (colon == NULL || colon == spec) {
        return -1;
    }
    const char *h = spec;
    size_t n = (size_t)(colon - spec);
    if (h[0] == '[') {
        if (n < 3 || h[n - 1] != ']') {
            return -1;
        }
        h++;
        n -= 2;
    }
    char *end = NULL;
    unsigned long p = strtoul(colon + 1, &end, 10);
    if (n == 0 || n >= hostlen || end == colon + 1 || *end != '\0' ||
        p > 65535) {
        return -1;
    }
    memcpy(host, h, n);
    host[n] = '\0';
    *port = (unsigned)p;
    return 0;
}
