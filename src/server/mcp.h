/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * mcp.h - the Model Context Protocol layer: message validation and the
 * method table (initialize, ping, tools/list, tools/call, logging/setLevel
 * and the notifications).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/pyward.h"
#include "server/server.h"
#include "server/tools.h"

/* MCP log levels (RFC 5424 order). */
enum pw_mcp_level {
    PW_MCP_DEBUG,
    PW_MCP_INFO,
    PW_MCP_NOTICE,
    PW_MCP_WARNING,
    PW_MCP_ERROR,
    PW_MCP_CRITICAL,
    PW_MCP_ALERT,
    PW_MCP_EMERGENCY,
    PW_MCP_OFF,
};

struct pw_mcp {
    struct pw_server *srv;  /* borrowed */
    struct pw_tools *tools; /* borrowed */
    bool initialized;       /* initialize was answered */
    const char *version;    /* negotiated protocol version (static) */
    int client_level;       /* notifications/message at or above; OFF */
    struct pw_sink *sink;   /* borrowed: replies go there; NULL: stdio */
    bool per_request;       /* one HTTP request: no handshake state */
};

/* Set M up and make it SRV's handler (pw_server_set_handler): it gets
 * the server's input lines and news from then on. */
void pw_mcp_init(struct pw_mcp *m, struct pw_server *srv,
                 struct pw_tools *tools);
/* Set M up for one request of a stateless transport (HTTP): replies go to
 * SINK (borrowed), no handshake is needed, VERSION is the transport's
 * protocol version header (NULL: none).  Returns -1 when VERSION is not
 * one the server speaks. */
int pw_mcp_init_request(struct pw_mcp *m, struct pw_server *srv,
                        struct pw_tools *tools, struct pw_sink *sink,
                        const char *version);
/* Handle one input line (a pw_rpc_line_fn): parsed at once. */
void pw_mcp_handle_line(void *m, const char *line, size_t len, bool oversized);
/* Handle one message parsed already (MSG borrowed): a line of
 * PW_PARSE_MIN bytes or more, parsed by the parse worker. */
struct pw_rpc_msg;
void pw_mcp_handle_msg(void *m, const struct pw_rpc_msg *msg);
/* Send a notifications/message to the client if LEVEL is enabled. */
void pw_mcp_log(struct pw_mcp *m, enum pw_mcp_level level, const char *fmt,
                ...) PW_PRINTF(3, 4);
