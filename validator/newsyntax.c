/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * newsyntax.c - syntax errors that are Python 3.12 syntax.
 *
 * Defines pw_newer_syntax.
 */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "core/py.h"
#include "validator/newsyntax.h"

/* Past the keyword KW and the blanks after it at *P, or false. */
static bool
keyword(const char **p, const char *end, const char *kw)
{
    size_t n = strlen(kw);
    const char *s = *p;
    if ((size_t)(end - s) <= n || strncmp(s, kw, n) != 0 ||
        (s[n] != ' ' && s[n] != '\t')) {
        return false;
    }
    s += n;
    while (s < end && (*s == ' ' || *s == '\t')) {
        s++;
    }
    *p = s;
    return true;
}

/* Past a name and the blanks after it at *P, or false. */
static bool
name(const char **p, const char *end)
{
    const char *s = *p;
    if (s >= end || !(isalpha((unsigned char)*s) || *s == '_' ||
                      (unsigned char)*s >= 0x80)) {
        return false;
    }
    while (s < end && (isalnum((unsigned char)*s) || *s == '_' ||
                       (unsigned char)*s >= 0x80)) {
        s++;
    }
    while (s < end && (*s == ' ' || *s == '\t')) {
        s++;
    }
    *p = s;
    return true;
}

const char *
pw_newer_syntax(const char *src, size_t len, long line, const char *msg)
{
    if (PY_VERSION_HEX >= 0x030C0000) {
        return NULL;
    }
    if (strstr(msg, "f-string expression part cannot include a backslash")) {
        return "a backslash inside an f-string's braces";
    }
    if (strstr(msg, "f-string expression part cannot include '#'")) {
        return "a comment inside an f-string's braces";
    }
    size_t i = 0;
    for (long l = 1; l < line && i < len; i++) {
        l += src[i] == '\n';
    }
    const char *s = src + i;
    const char *nl = memchr(s, '\n', len - i);
    const char *end = nl != NULL ? nl : src + len;
    while (s < end && (*s == ' ' || *s == '\t')) {
        s++;
    }
    const char *p = s;
    if (keyword(&p, end, "type") && name(&p, end) && p < end &&
        (*p == '[' || (*p == '=' && (p + 1 == end || p[1] != '=')))) {
        return "a 'type' alias statement";
    }
    p = s;
    (void)keyword(&p, end, "async");
    if (keyword(&p, end, "def") && name(&p, end) && p < end && *p == '[') {
        return "a generic function (type parameters in brackets)";
    }
    p = s;
    if (keyword(&p, end, "class") && name(&p, end) && p < end && *p == '[') {
        return "a generic class (type parameters in brackets)";
    }
    return NULL;
}
