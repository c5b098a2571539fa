/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * mcp.c - MCP over JSON-RPC 2.0: envelope checks, version negotiation,
 * the method table and the notifications.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/rpc.h"
#include "core/log.h"
#include "server/mcp.h"
#include "server/events.h"

#define MAX_BATCH PW_RPC_MAX_BATCH

/* The handshake era, newest first; the first is answered when the
 * client's is unknown. */
static const char *const versions[] = {"2025-11-25", "2025-06-18",
                                       "2025-03-26", "2024-11-05"};

/* The stateless revision: no handshake, each request's _meta carries its
 * protocol version and the client's capabilities (and may carry the
 * client's identity). */
#define STATELESS_VERSION "2026-07-28"
#define META_VERSION      "io.modelcontextprotocol/protocolVersion"
#define META_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define META_SERVER_INFO  "io.modelcontextprotocol/serverInfo"
/* JSON-RPC error for a protocol version the server does not speak. */
#define UNSUPPORTED_VERSION (-32022)
/* How long a client may keep tools/list and server/discover (they never
 * change while the server runs). */
#define CACHE_TTL_MS 3600000

static const char *const level_names[] = {
    "debug", "info",     "notice", "warning",
    "error", "critical", "alert",  "emergency",
};

static const char instructions[] =
    "pyward runs untrusted Python in a sandbox. Call validate_code to "
    "check code without running it, execute_code to run it (stdout, "
    "stderr, the value of the last expression and errors come back), and "
    "get_sandbox_info for the allowed modules and limits. Only the modules "
    "of the enabled profiles can be imported; files, network and "
    "subprocesses are blocked unless a profile allows them.";

/* The server's news about a run, as an info message. */
static void
note(void *m, const char *text)
{
    pw_mcp_log(m, PW_MCP_INFO, "%s", text);
}

void
pw_mcp_init(struct pw_mcp *m, struct pw_server *srv, struct pw_tools *tools)
{
    m->srv = srv;
    m->tools = tools;
    m->initialized = false;
    m->version = NULL;
    m->client_level = PW_MCP_OFF;
    m->sink = NULL;
    m->per_request = false;
    struct pw_server_handler h = {pw_mcp_handle_line, pw_mcp_handle_msg, note,
                                  m};
    pw_server_set_handler(srv, &h);
}

int
pw_mcp_init_request(struct pw_mcp *m, struct pw_server *srv,
                    struct pw_tools *tools, struct pw_sink *sink,
                    const char *version)
{
    m->srv = srv;
    m->tools = tools;
    m->initialized = false;
    m->client_level = PW_MCP_OFF;
    m->sink = sink;
    m->per_request = true;
    /* A client that does not say speaks the oldest revision with this
     * transport (2025-03-26). */
    m->version = "2025-03-26";
    if (version == NULL || strcmp(version, STATELESS_VERSION) == 0) {
        return 0;
    }
    for (size_t i = 0; i < PW_N_ELEMENTS(versions); i++) {
        if (strcmp(version, versions[i]) == 0) {
            m->version = versions[i];
            return 0;
        }
    }
    return -1;
}

void
pw_mcp_log(struct pw_mcp *m, enum pw_mcp_level level, const char *fmt, ...)
{
    if ((int)level < m->client_level || level >= PW_MCP_OFF) {
        return;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    json_auto_t *params =
        json_pack("{s:s,s:s,s:s}", "level", level_names[level], "logger",
                  "pyward", "data", msg);
    if (params != NULL) {
        pw_server_notify_to(
            m->srv, m->sink,
            pw_rpc_notification_new("notifications/message", params));
    }
}

static void reply_error(struct pw_mcp *m, const struct pw_rpc_req *req,
                        int code, const char *fmt, ...) PW_PRINTF(4, 5);

static void
reply_error(struct pw_mcp *m, const struct pw_rpc_req *req, int code,
            const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    pw_log(PW_LOG_DEBUG, "reply error %d: %s", code, msg);
    pw_server_send(m->srv, req,
                   pw_rpc_error_new(req->id_raw, code, msg, NULL));
}

/* New reference: {name, title, version} of the server. */
static json_t *
server_info(void)
{
    return json_pack("{s:s,s:s,s:s}", "name", "pyward", "title",
                     "pyward Python sandbox", "version", PACKAGE_VERSION);
}

/* What a stateless request's result carries besides its fields: the
 * result type and the server's identity. */
static void
stamp_stateless(json_t *result)
{
    json_object_set_new(result, "resultType", json_string("complete"));
    json_object_set_new(result, "_meta",
                        json_pack("{s:o}", META_SERVER_INFO, server_info()));
}

/* Reply with RESULT (stolen; NULL: it could not be built). */
static void
reply_result(struct pw_mcp *m, const struct pw_rpc_req *req, json_t *result)
{
    if (result != NULL && req->stateless) {
        stamp_stateless(result);
    }
    if (result == NULL) {
        reply_error(m, req, PW_RPC_INTERNAL_ERROR,
                    "the result could not be built");
        return;
    }
    pw_server_send_reply(m->srv, req,
                         pw_rpc_result_reply(req->id_raw, result));
    json_decref(result);
}

/* --- methods ---------------------------------------------------------- */

static void
m_initialize(struct pw_mcp *m, struct pw_rpc_req *req, json_t *params)
{
    const char *asked =
        json_string_value(json_object_get(params, "protocolVersion"));
    if (asked == NULL) {
        reply_error(m, req, PW_RPC_INVALID_PARAMS,
                    "initialize: 'protocolVersion' must be a string");
        return;
    }
    if (m->initialized && !m->per_request) {
        reply_error(m, req, PW_RPC_INVALID_REQUEST,
                    "initialize: already initialized");
        return;
    }
    m->version = versions[0];
    for (size_t i = 0; i < PW_N_ELEMENTS(versions); i++) {
        if (strcmp(asked, versions[i]) == 0) {
            m->version = versions[i];
        }
    }
    m->initialized = true;
    pw_log(PW_LOG_INFO, "client asked protocol %s, answering %s", asked,
           m->version);
    reply_result(m, req,
                 json_pack("{s:s,s:{s:{s:b},s:{}},s:o,s:s}", "protocolVersion",
                           m->version, "capabilities", "tools", "listChanged",
                           0, "logging", "serverInfo", server_info(),
                           "instructions", instructions));
}

/* Every version the server speaks, the stateless one first. */
static json_t *
all_versions(void)
{
    json_t *a = json_array();
    json_array_append_new(a, json_string(STATELESS_VERSION));
    for (size_t i = 0; i < PW_N_ELEMENTS(versions); i++) {
        json_array_append_new(a, json_string(versions[i]));
    }
    return a;
}

/* A result a client may cache (tools/list, server/discover). */
static json_t *
cacheable(const struct pw_rpc_req *req, json_t *result)
{
    if (result != NULL && req->stateless) {
        json_object_set_new(result, "ttlMs", json_integer(CACHE_TTL_MS));
        json_object_set_new(result, "cacheScope", json_string("public"));
    }
    return result;
}

static void
m_discover(struct pw_mcp *m, struct pw_rpc_req *req, json_t *params)
{
    reply_result(
        m, req,
        cacheable(req,
                  json_pack("{s:o,s:{s:{s:b}},s:s}", "supportedVersions",
                            all_versions(), "capabilities", "tools",
                            "listChanged", 0, "instructions", instructions)));
}

static void
m_ping(struct pw_mcp *m, struct pw_rpc_req *req, json_t *params)
{
    reply_result(m, req, json_object());
}

static void
m_tools_list(struct pw_mcp *m, struct pw_rpc_req *req, json_t *params)
{
    json_t *tools = pw_tools_list_json(m->tools);
    reply_result(m, req,
                 cacheable(req, tools != NULL
                                    ? json_pack("{s:o}", "tools", tools)
                                    : NULL));
}

static void
m_set_level(struct pw_mcp *m, struct pw_rpc_req *req, json_t *params)
{
    const char *level = json_string_value(json_object_get(params, "level"));
    for (size_t i = 0; level != NULL && i < PW_N_ELEMENTS(level_names); i++) {
        if (strcmp(level, level_names[i]) == 0) {
            m->client_level = (int)i;
            reply_result(m, req, json_object());
            return;
        }
    }
    reply_error(m, req, PW_RPC_INVALID_PARAMS,
                "logging/setLevel: 'level' must be one of debug, info, "
                "notice, warning, error, critical, alert, emergency");
}

/* tools/call of a tool answered from the event loop (execute_code,
 * grade_code, create_session, validate_code): its arguments checked now,
 * its program validated now or by a validator process, its runs queued. */
static void
call_execute(struct pw_mcp *m, struct pw_rpc_req *req, const char *name,
             json_t *args, json_t *meta)
{
    struct pw_error err = {0};
    json_t *result = NULL;
    struct pw_exec *e = pw_tools_exec_new(m->tools, name, args, &result, &err);
    if (e == NULL && result != NULL) {
        pw_mcp_log(m, PW_MCP_INFO, "%s answered before running", name);
        const char *st = json_string_value(json_object_get(
            json_object_get(result, "structuredContent"), "status"));
        if (st != NULL && strcmp(st, "rejected") == 0) {
            pw_server_count_rejected(m->srv);
        }
        pw_events_answered(name, args, result);
        reply_result(m, req, result);
        return;
    }
    if (e == NULL) {
        reply_error(m, req,
                    err.code == PW_ERR_USAGE ? PW_RPC_INVALID_PARAMS
                                             : PW_RPC_INTERNAL_ERROR,
                    "%s: %s", name, err.message);
        return;
    }
    json_t *token = json_object_get(meta, "progressToken"); /* borrowed */
    if (token != NULL && !pw_rpc_id_ok(token)) {
        token = NULL;
    }
    pw_server_submit(m->srv, req, e, json_incref(token));
}

static void
m_tools_call(struct pw_mcp *m, struct pw_rpc_req *req, json_t *params)
{
    const char *name = json_string_value(json_object_get(params, "name"));
    json_t *args = json_object_get(params, "arguments"); /* borrowed */
    if (name == NULL) {
        reply_error(m, req, PW_RPC_INVALID_PARAMS,
                    "tools/call: 'name' must be a string");
        return;
    }
    if (!pw_tools_exists(m->tools, name)) {
        reply_error(m, req, PW_RPC_INVALID_PARAMS, "unknown tool '%s'", name);
        return;
    }
    if (args != NULL && !json_is_object(args) && !json_is_null(args)) {
        reply_error(m, req, PW_RPC_INVALID_PARAMS,
                    "%s: 'arguments' must be an object", name);
        return;
    }
    if (json_is_null(args)) {
        args = NULL;
    }
    if (pw_tools_answered_later(m->tools, name)) {
        call_execute(m, req, name, args, json_object_get(params, "_meta"));
        return;
    }
    struct pw_error err = {0};
    json_t *result = NULL;
    if (pw_tools_call_sync(m->tools, name, args, &result, &err) < 0) {
        reply_error(m, req,
                    err.code == PW_ERR_USAGE ? PW_RPC_INVALID_PARAMS
                                             : PW_RPC_INTERNAL_ERROR,
                    "%s: %s", name, err.message);
        return;
    }
    reply_result(m, req, result);
}

typedef void (*method_fn)(struct pw_mcp *m, struct pw_rpc_req *req,
                          json_t *params);

/* The eras a method belongs to. */
enum { ERA_HANDSHAKE = 1, ERA_STATELESS = 2 };

static const struct method {
    const char *name;
    method_fn fn;
    bool before_init; /* allowed before initialize (handshake era) */
    unsigned eras;
} methods[] = {
    {"initialize", m_initialize, true, ERA_HANDSHAKE},
    {"ping", m_ping, true, ERA_HANDSHAKE},
    {"server/discover", m_discover, true, ERA_STATELESS},
    {"tools/list", m_tools_list, false, ERA_HANDSHAKE | ERA_STATELESS},
    {"tools/call", m_tools_call, false, ERA_HANDSHAKE | ERA_STATELESS},
    {"logging/setLevel", m_set_level, false, ERA_HANDSHAKE},
};

/* --- notifications ---------------------------------------------------- */

static void
notification(struct pw_mcp *m, const char *method, json_t *params)
{
    if (strcmp(method, "notifications/cancelled") == 0) {
        json_t *id = json_object_get(params, "requestId"); /* borrowed */
        if (id != NULL) {
            pw_log(PW_LOG_INFO, "client cancelled a request");
            pw_server_cancel(m->srv, id, m->sink);
        }
    } else if (strcmp(method, "notifications/initialized") == 0) {
        pw_log(PW_LOG_DEBUG, "client initialized");
    } else {
        pw_log(PW_LOG_DEBUG, "ignoring notification %s", method);
    }
}

/* --- messages --------------------------------------------------------- */

/* Why MSG's envelope is wrong (an error code and message), or 0. */
static int
envelope_error(json_t *msg, const char **why)
{
    json_t *method = json_object_get(msg, "method"); /* borrowed */
    json_t *params = json_object_get(msg, "params"); /* borrowed */
    const char *version = json_string_value(json_object_get(msg, "jsonrpc"));
    if (version == NULL || strcmp(version, "2.0") != 0) {
        *why = "invalid request: 'jsonrpc' must be \"2.0\"";
        return PW_RPC_INVALID_REQUEST;
    }
    if (!json_is_string(method)) {
        *why = "invalid request: 'method' must be a string";
        return PW_RPC_INVALID_REQUEST;
    }
    if (params != NULL && !json_is_object(params)) {
        *why = "invalid request: 'params' must be an object";
        return json_is_array(params) ? PW_RPC_INVALID_PARAMS
                                     : PW_RPC_INVALID_REQUEST;
    }
    return 0;
}

/* True if MSG is a response (to a request we never send). */
static bool
is_response(json_t *msg)
{
    return json_object_get(msg, "method") == NULL &&
           json_object_get(msg, "id") != NULL &&
           (json_object_get(msg, "result") != NULL ||
            json_object_get(msg, "error") != NULL);
}

static const struct method *
find_method(const char *name)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(methods); i++) {
        if (strcmp(methods[i].name, name) == 0) {
            return &methods[i];
        }
    }
    return NULL;
}

static void
unsupported_version(struct pw_mcp *m, const struct pw_rpc_req *req,
                    const json_t *asked)
{
    json_t *data = json_pack("{s:o,s:O}", "supported", all_versions(),
                             "requested", asked);
    pw_server_send(m->srv, req,
                   pw_rpc_error_new(req->id_raw, UNSUPPORTED_VERSION,
                                    "Unsupported protocol version", data));
    json_decref(data);
}

/* The request's era from its _meta: 1 stateless (REQ marked so), 0 the
 * handshake era (no protocol version in _meta), -1 refused (answered). */
static int
request_era(struct pw_mcp *m, struct pw_rpc_req *req, json_t *params)
{
    json_t *meta = json_object_get(params, "_meta"); /* borrowed */
    json_t *asked = json_object_get(meta, META_VERSION);
    if (asked == NULL) {
        return 0;
    }
    if (!json_is_string(asked) ||
        strcmp(json_string_value(asked), STATELESS_VERSION) != 0) {
        unsupported_version(m, req, asked);
        return -1;
    }
    if (!json_is_object(json_object_get(meta, META_CAPABILITIES))) {
        reply_error(m, req, PW_RPC_INVALID_PARAMS,
                    "invalid params: _meta must carry '%s' (an object) in "
                    "protocol " STATELESS_VERSION,
                    META_CAPABILITIES);
        return -1;
    }
    req->stateless = true;
    return 1;
}

/* Dispatch a request of a known method METH in its era. */
static void
dispatch(struct pw_mcp *m, struct pw_rpc_req *req, const struct method *meth,
         json_t *params)
{
    int era = request_era(m, req, params);
    if (era < 0) {
        return;
    }
    if ((meth->eras & (era ? ERA_STATELESS : ERA_HANDSHAKE)) == 0) {
        reply_error(m, req,
                    era ? PW_RPC_METHOD_NOT_FOUND : PW_RPC_INVALID_REQUEST,
                    era ? "method not found: '%s' is not part of "
                          "protocol " STATELESS_VERSION
                        : "'%s' needs the _meta of protocol " STATELESS_VERSION
                          " (" META_VERSION ", " META_CAPABILITIES ")",
                    meth->name);
    } else if (!era && !m->initialized && !m->per_request &&
               !meth->before_init) {
        reply_error(m, req, PW_RPC_INVALID_REQUEST,
                    "server not initialized: send 'initialize' before '%s'",
                    meth->name);
    } else {
        pw_log(PW_LOG_DEBUG, "request %s %s", req->id_raw, meth->name);
        pw_mcp_log(m, PW_MCP_DEBUG, "request %s %s", req->id_raw, meth->name);
        meth->fn(m, req, params);
    }
}

/* Handle one message MSG whose "id" is written ID_RAW (borrowed, NULL:
 * none).  Returns true when a reply was sent or is owed (a run was
 * queued). */
static bool
handle_message(struct pw_mcp *m, json_t *msg, const char *id_raw,
               struct pw_batch *batch)
{
    struct pw_rpc_req req = {.batch = batch, .sink = m->sink};
    json_t *id = json_object_get(msg, "id"); /* borrowed */
    const char *why = NULL;
    if (!json_is_object(msg) || (id != NULL && !pw_rpc_id_ok(id))) {
        reply_error(m, &req, PW_RPC_INVALID_REQUEST, "invalid request: %s",
                    json_is_object(msg) ? "'id' must be a string or a whole "
                                          "number"
                                        : "a message must be a JSON object");
        return true;
    }
    if (is_response(msg)) {
        pw_log(PW_LOG_DEBUG, "ignoring a response from the client");
        return false;
    }
    int code = envelope_error(msg, &why);
    const char *name = json_string_value(json_object_get(msg, "method"));
    json_t *params = json_object_get(msg, "params"); /* borrowed */
    if (id == NULL && code == 0) {
        notification(m, name, params);
        return false;
    }
    if (id == NULL) { /* not a notification: an invalid request */
        reply_error(m, &req, code, "%s", why);
        return true;
    }
    req.id_raw = id_raw != NULL ? pw_xstrdup(id_raw) : NULL;
    req.id = json_incref(id);
    const struct method *meth = code == 0 ? find_method(name) : NULL;
    if (code != 0) {
        reply_error(m, &req, code, "%s", why);
    } else if (meth == NULL) {
        reply_error(m, &req, PW_RPC_METHOD_NOT_FOUND, "method not found: '%s'",
                    name);
    } else {
        dispatch(m, &req, meth, params);
    }
    pw_rpc_req_clear(&req);
    return true;
}

static void
handle_batch(struct pw_mcp *m, const struct pw_rpc_msg *msg)
{
    json_t *msgs = msg->v;
    struct pw_rpc_req noid = {.sink = m->sink};
    size_t n = json_array_size(msgs);
    if (m->version == NULL || strcmp(m->version, "2025-03-26") != 0) {
        reply_error(m, &noid, PW_RPC_INVALID_REQUEST,
                    "invalid request: batches are not supported in protocol "
                    "version %s",
                    m->version != NULL ? m->version : versions[0]);
        return;
    }
    if (n == 0 || n > MAX_BATCH) {
        reply_error(m, &noid, PW_RPC_INVALID_REQUEST,
                    "invalid request: a batch holds 1 to %d messages",
                    MAX_BATCH);
        return;
    }
    struct pw_batch *b = pw_server_batch_new(m->srv, n, m->sink);
    for (size_t i = 0; i < n; i++) {
        if (!handle_message(m, json_array_get(msgs, i), msg->ids[i], b)) {
            pw_server_batch_release(m->srv, b);
        }
    }
    pw_server_batch_release(m->srv, b);
}

void
pw_mcp_handle_line(void *ctx, const char *line, size_t len, bool oversized)
{
    struct pw_mcp *m = ctx;
    struct pw_rpc_req noid = {.sink = m->sink};
    if (oversized) {
        reply_error(m, &noid, PW_RPC_INVALID_REQUEST,
                    "invalid request: message longer than %u bytes",
                    PW_RPC_MAX_LINE);
        return;
    }
    struct pw_rpc_msg msg;
    pw_rpc_msg_parse(&msg, line, len);
    pw_mcp_handle_msg(m, &msg);
    pw_rpc_msg_clear(&msg);
}

void
pw_mcp_handle_msg(void *ctx, const struct pw_rpc_msg *msg)
{
    struct pw_mcp *m = ctx;
    struct pw_rpc_req noid = {.sink = m->sink};
    if (msg->blank) {
        return;
    }
    if (msg->v == NULL) {
        reply_error(m, &noid, PW_RPC_PARSE_ERROR, "parse error: %s",
                    msg->err.message);
    } else if (json_is_array(msg->v)) {
        handle_batch(m, msg);
    } else {
        handle_message(m, msg->v, msg->id, NULL);
    }
}
