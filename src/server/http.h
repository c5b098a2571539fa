/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * http.h - `pyward serve --http HOST:PORT`: MCP's Streamable HTTP
 * transport at /mcp (stateless: every POST is answered on its own), and
 * /healthz, /readyz, /metrics, on libmicrohttpd driven by the server's
 * poll loop (external epoll mode, connections suspended while their run
 * is in flight).
 */
#pragma once

#include "server/conf.h"
#include "server/server.h"
#include "server/tools.h"

struct pw_http;

/* Listen as CFG says (borrowed, like SRV and TOOLS, for the life of the
 * result) and make the result SRV's transport.  Returns NULL with ERR
 * (an address that is not loopback without tokens, a token or TLS file
 * that cannot be read, a port taken). */
struct pw_http *pw_http_new(const struct pw_conf *cfg, struct pw_server *srv,
                            struct pw_tools *tools, struct pw_error *err);
/* Answer what is still waiting (503), close every connection, free. */
void pw_http_free(struct pw_http *h);

/* --- shared by http.c and http_ops.c ----------------------------------- */

/* Counters of the HTTP side, for /metrics. */
struct pw_http_counts {
    unsigned long long requests[6];  /* by status class: 1xx..5xx, other;
                                        not /readyz's 503s */
    unsigned long long not_ready[2]; /* /readyz 503: starting, draining */
    unsigned long long unauthorized;
    unsigned long long forbidden;
    unsigned long long deadline_cut; /* connections cut for slowness */
    unsigned long long host;         /* a Host that is not the listener */
    unsigned long long busy;         /* 503: --max-connections in use */
    unsigned long long address;      /* 503: the address's share in use */
    unsigned long long evicted;      /* idle connections closed for new ones */
    int connections;
    int streams; /* exchanges waiting for a run or streaming */
};

/* The /metrics text (owned). */
char *pw_http_metrics_text(const struct pw_server *srv,
                           const struct pw_tools *tools,
                           const struct pw_http_counts *c);
/* True once the sandbox is ready: the zygote is up, has imported the
 * profiles' modules, and its pool was full once (*WARM remembers it). */
bool pw_http_ready(const struct pw_tools *tools, bool *warm);
/* Write the access-log line of one request to stderr. */
void pw_http_access_log(const char *remote, const char *method,
                        const char *path, const char *rpc, unsigned status,
                        double seconds, size_t bytes);
