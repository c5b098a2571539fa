/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * http_req.h - the parts of an HTTP request pyward reads itself: the
 * bearer token, the Origin, the media types of
 * Content-Type and Accept, the value of an Mcp-Param-* header, the
 * listening address.  Pure functions of
 * their text (fuzzed by tests/fuzz/fuzz-http.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "server/tokens.h"

struct pw_buf;

/* The token of an Authorization header "Bearer TOKEN" (scheme in any
 * case): *TOK and *LEN point into HEADER.  False when it is not one. */
bool pw_http_bearer(const char *header, const char **tok, size_t *len);

/* True if HOST (a name or an address, IPv6 in brackets or not) is
 * loopback: localhost, 127.0.0.0/8, ::1. */
bool pw_http_host_is_loopback(const char *host, size_t len);

/* True if the Host header HOST names the listener on PORT: a loopback
 * name or address (localhost, 127.0.0.0/8, [::1]) with PORT or without a
 * port, or one of ALLOWED (NULL-terminated, may be NULL; case-insensitive:
 * "name:port" matches that exactly, "name" that name with any port or
 * none).  Against DNS rebinding: a browser sends the name it resolved. */
bool pw_http_host_allowed(const char *host, unsigned port,
                          char *const *allowed);

/* True if the Origin header ORIGIN may call: one of ALLOWED (exact,
 * case-insensitive; NULL-terminated, may be NULL) or, when LOOPBACK, an
 * http(s) origin whose host is loopback. */
bool pw_http_origin_allowed(const char *origin, bool loopback,
                            char *const *allowed);

/* True if the media type of the header VALUE (parameters ignored) is
 * TYPE, case-insensitive. */
bool pw_http_media_is(const char *value, const char *type);

/* True if the Accept header VALUE admits TYPE ("a/b"): the type itself,
 * "a/ *" or "* / *" with a q above 0.  EXPLICIT: only the type itself. */
bool pw_http_accepts(const char *value, const char *type, bool explicit);

/* The value an Mcp-Param-* header VALUE carries (MCP 2026-07-28): VALUE
 * itself, or the bytes of the base64 between "=?base64?" and "?=", into
 * OUT.  0, or -1 when VALUE holds a byte a header value may not (outside
 * space to '~' and tab) or its base64 is broken. */
int pw_http_param_value(const char *value, struct pw_buf *out);

/* Split "HOST:PORT" ("[v6]:PORT" too) into HOST (NUL-terminated, up to
 * HOSTLEN bytes) and *PORT.  Returns 0, or -1 when malformed. */
int pw_http_parse_listen(const char *spec, char *host, size_t hostlen,
                         unsigned *port);
