/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * http.c - the Streamable HTTP transport on libmicrohttpd (see http.h).
 *
 * One exchange per HTTP request.  Its POST body goes to a pw_mcp set up
 * for that request alone, whose replies come back through the exchange's
 * pw_sink: at once (tools/list, validate_code, ...) or later from the
 * poll loop (execute_code), the connection suspended meanwhile.  With a
 * progressToken and an Accept that names text/event-stream, the answer
 * is an SSE stream: progress notifications, then the reply.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/log.h"
#include "core/reply.h"
#include "core/util.h"
#include "server/http.h"
#include "server/http_req.h"
#include "server/events.h"
#include "server/jobe.h"
#include "server/listenfd.h"
#include "server/mcp.h"
#include "server/mhd.h"
#include "server/parse.h"

#define RETRY_AFTER  "1"
#define SSE_BLOCK    4096
#define REPLY_BLOCK  (64 * 1024) /* a JSON reply handed to MHD at a time */
#define TOKEN_MAX    (1u << 20)
#define TLS_FILE_MAX (1u << 20)
/* Connections libmicrohttpd takes past --max-connections: a probe
 * (/healthz, /readyz, /metrics) is answered from them when the cap is in
 * use, any other request 503. */
#define RESERVE_CON    16
#define PROBE_EVERY_MS 250 /* clients waiting for a run: still there? */
#define PARAM_SESSION  "Mcp-Param-Session-Id" /* x-mcp-header Session-Id */

struct conn {
    struct MHD_Connection *c;
    int fd;
    double deadline; /* headers and body in by then; 0: none */
    double since;    /* when it last began to wait for a request */
    bool active;     /* a request's headers are in: not evictable */
    bool counted;    /* an /mcp or Jobe request counted in h->busy */
    bool in_body;    /* a request's body has begun to come */
    bool cut;        /* shut down, on its way out */
    char key[INET6_ADDRSTRLEN + 4]; /* the client's address (v6: /64) */
    struct conn *next;
};

struct exchange {
    struct pw_sink sink; /* first: the sink is the exchange */
    struct pw_http *h;
    struct MHD_Connection *c;
    struct conn *conn;
    struct pw_mcp mcp;
    struct pw_buf body;
    struct pw_buf out;      /* a Jobe answer, or a refusal's line */
    struct pw_reply *reply; /* owned: the JSON reply, or SSE events not
                             * yet sent; read as MHD takes it */
    double start;
    unsigned status;
    size_t bytes;
    char method[8];
    char path[128];
    char rpc[48];    /* the JSON-RPC method, for the log */
    char owner[32];  /* who calls: the owner of its sessions */
    char client[96]; /* the event log's: "token:NAME" or "addr:ADDRESS" */
    bool too_big;    /* the body went over the cap */
    bool reading;    /* the body is coming */
    bool waiting;    /* a reply is owed (in h->streams) */
    bool suspended;
    bool sse_ok;        /* Accept names text/event-stream */
    bool sse;           /* answering with a stream */
    bool finished;      /* the reply (or its absence) is known */
    bool no_reply;      /* cancelled, or a batch of notifications */
    bool gone;          /* the connection is done: ignore the sink */
    bool jobe;          /* a route of the Jobe API */
    bool jobe_answered; /* OUT holds its run's answer (the sink's done) */
    bool probe;         /* /healthz or /readyz (logged with --log-probes) */
    int unready;        /* /readyz answered 503: 1 starting, 2 draining */
    char *jobe_source;  /* owned: the file name of its run */
    char *jobe_run_id;  /* owned: its run's run_id */
    struct pw_jobe_put *put; /* owned: a Jobe file PUT, its body read as it
                                comes (never kept in BODY) */
    struct pw_jobe_answer put_answer; /* known before the body's end */
    bool put_over;                    /* PUT_ANSWER holds it */
    size_t put_rest;          /* the body's bytes read past it, thrown away */
    size_t put_max;           /* at most (then the connection is closed) */
    struct body_job *parsing; /* its body in the parse worker, or NULL */
    bool parsed;              /* the worker's tree is in MSG or JOBE_ROOT */
    struct pw_rpc_msg msg;    /* the /mcp body, parsed */
    json_t *jobe_root;        /* owned: a Jobe run's spec, parsed */
    struct exchange *next;
};

/* A body given to the parse worker (parse.h): an /mcp message or a Jobe
 * run's spec, its exchange suspended meanwhile as one waiting for its
 * reply (in h->streams). */
struct body_job {
    struct pw_parse_job base; /* first */
    struct exchange *x;       /* NULL: the exchange is gone */
    char *text;               /* owned, freed by the worker once parsed */
    size_t len;
    bool jobe;
    struct pw_rpc_msg msg; /* /mcp */
    json_t *root;          /* owned: a Jobe run's spec */
};

struct pw_http {
    struct MHD_Daemon *d;
    struct pw_server *srv;
    struct pw_tools *tools;
    const struct pw_conf *cfg;
    bool loopback;
    bool auth;
    bool draining;
    bool stopping;
    bool warm;
    struct pw_tokens tokens;
    struct pw_jobe *jobe; /* the Jobe API (--jobe), or NULL */
    unsigned long jobe_runs;
    struct conn *conns;
    int busy; /* /mcp and Jobe requests in progress (the cap's count) */
    int cut;  /* connections shut down, not yet closed by MHD */
    struct exchange *streams;
    struct pw_http_counts counts;
    double next_probe;      /* when to look for clients gone */
    double next_body_probe; /* and for those gone mid-body */
    char *tls_cert;
    char *tls_key;
    char addr[INET6_ADDRSTRLEN]; /* where it listens, numeric */
    unsigned port;
    char where[INET6_ADDRSTRLEN + 64]; /* the listener, for messages */
};

/* --- responses -------------------------------------------------------- */

static const char *header(struct exchange *x, const char *name);

/* X's Origin header when --cors-origin lists it (borrowed from the
 * request), else NULL: only those origins get CORS answers. */
static const char *
cors_origin(struct exchange *x)
{
    char *const *list = x->h->cfg->cors_origins;
    const char *origin = list != NULL && strcmp(x->path, "/mcp") == 0
                             ? header(x, MHD_HTTP_HEADER_ORIGIN)
                             : NULL;
    for (size_t i = 0; origin != NULL && list[i] != NULL; i++) {
        if (strcasecmp(origin, list[i]) == 0) {
            return origin;
        }
    }
    return NULL;
}

/* True if the header names of a preflight's Access-Control-Request-Headers
 * are plain tokens (echoed back as allowed). */
static bool
header_names_ok(const char *v)
{
    return v != NULL && *v != '\0' && strlen(v) < 1024 &&
           v[strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                       "0123456789-_, ")] == '\0';
}

/* The CORS headers of a response to X when its Origin is listed: the
 * origin allowed, the MCP headers a page may read, and for a preflight
 * (OPTIONS) the methods and request headers allowed. */
static void
add_cors(struct exchange *x, struct MHD_Response *r)
{
    const char *origin = cors_origin(x);
    if (origin == NULL) {
        return;
    }
    pw_mhd.add_response_header(r, "Access-Control-Allow-Origin", origin);
    pw_mhd.add_response_header(r, "Vary", "Origin");
    if (strcmp(x->method, "OPTIONS") != 0) {
        pw_mhd.add_response_header(r, "Access-Control-Expose-Headers",
                                   "Mcp-Session-Id, Mcp-Protocol-Version, "
                                   "WWW-Authenticate, Retry-After");
        return;
    }
    const char *asked = header(x, "Access-Control-Request-Headers");
    pw_mhd.add_response_header(r, "Access-Control-Allow-Methods",
                               "POST, OPTIONS");
    pw_mhd.add_response_header(
        r, "Access-Control-Allow-Headers",
        header_names_ok(asked)
            ? asked
            : "Authorization, Content-Type, Accept, Mcp-Session-Id, "
              "Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID");
    pw_mhd.add_response_header(r, "Access-Control-Max-Age", "600");
}

/* Queue a response of STATUS with BODY (copied; may be empty) of TYPE. */
static enum MHD_Result
send_body(struct exchange *x, unsigned status, const char *type,
          const char *body, bool close)
{
    size_t len = strlen(body);
    struct MHD_Response *r = pw_mhd.create_response_from_buffer(
        len, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (r == NULL) {
        return MHD_NO;
    }
    if (type != NULL) {
        pw_mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    }
    if (status == MHD_HTTP_SERVICE_UNAVAILABLE ||
        status == MHD_HTTP_TOO_MANY_REQUESTS) {
        pw_mhd.add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER,
                                   RETRY_AFTER);
    }
    if (status == MHD_HTTP_UNAUTHORIZED) {
        pw_mhd.add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
                                   "Bearer realm=\"pyward\"");
    }
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED) {
        pw_mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW,
                                   strcmp(x->path, "/mcp") == 0 ? "POST"
                                                                : "GET, HEAD");
    }
    if (close || x->h->draining) {
        pw_mhd.add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    }
    add_cors(x, r);
    x->status = status;
    x->bytes = len;
    enum MHD_Result rc = pw_mhd.queue_response(x->c, status, r);
    pw_mhd.destroy_response(r);
    return rc;
}

/* A plain-text error; the connection is closed after it when the body
 * was not read. */
static enum MHD_Result
send_error(struct exchange *x, unsigned status, const char *text)
{
    char body[256];
    snprintf(body, sizeof(body), "%s\n", text);
    return send_body(x, status, "text/plain; charset=utf-8", body, x->reading);
}

/* A JSON-RPC error with a null id, with STATUS. */
static enum MHD_Result
send_rpc_error(struct exchange *x, unsigned status, int code, const char *msg)
{
    char *line = pw_rpc_error_new(NULL, code, msg, NULL);
    enum MHD_Result rc =
        send_body(x, status, "application/json", line, x->reading);
    free(line);
    return rc;
}

/* The HTTP status of a JSON reply: a lone error the transport spec maps
 * (parse error, invalid request, unsupported version: 400; server busy:
 * 503), else 200.  A reply is {"jsonrpc":"2.0","id":ID,"result"... or
 * ..."error"... (rpc.c), and ID is a scalar: the first of the two keys is
 * the reply's, and a result (megabytes, with output files) is neither
 * scanned nor parsed. */
static unsigned
reply_status(const char *line)
{
    const char *result = strstr(line, "\"result\":");
    size_t head = result != NULL ? (size_t)(result - line) : strlen(line);
    if (strncmp(line, "{", 1) != 0 ||
        memmem(line, head, "\"error\":", 8) == NULL) {
        return MHD_HTTP_OK;
    }
    json_auto_t *msg = json_loads(line, 0, NULL);
    json_int_t code = json_integer_value(
        json_object_get(json_object_get(msg, "error"), "code"));
    switch (code) {
    case PW_RPC_PARSE_ERROR:
    case PW_RPC_INVALID_REQUEST:
    case -32022:
        return MHD_HTTP_BAD_REQUEST;
    case PW_RPC_SERVER_BUSY:
        return MHD_HTTP_SERVICE_UNAVAILABLE;
    default:
        return MHD_HTTP_OK;
    }
}

/* SSE: hand out the events queued; suspend while none is. */
static ssize_t
sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct exchange *x = cls;
    (void)pos;
    size_t n = x->reply != NULL ? pw_reply_read(x->reply, buf, max) : 0;
    if (x->reply != NULL && pw_reply_failed(x->reply)) {
        return MHD_CONTENT_READER_END_WITH_ERROR; /* a file changed */
    }
    if (n == 0 && x->finished) {
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    if (n == 0) {
        pw_mhd.suspend_connection(x->c);
        x->suspended = true;
        return 0;
    }
    x->bytes += n;
    return (ssize_t)n;
}

/* A JSON reply: a chunk at a time, as the connection takes it. */
static ssize_t
reply_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct exchange *x = cls;
    (void)pos;
    size_t n = pw_reply_read(x->reply, buf, max);
    if (pw_reply_failed(x->reply)) {
        /* A file changed after its run: the body is cut short of its
         * Content-Length, so the client cannot take it for whole. */
        return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    return n > 0 ? (ssize_t)n : MHD_CONTENT_READER_END_OF_STREAM;
}

/* The HTTP status of X's reply (reply_status on the text it starts
 * with: its envelope, or all of a short reply). */
static unsigned
reply_status_of(struct exchange *x)
{
    size_t len;
    const char *head = pw_reply_head(x->reply, &len);
    PW_AUTOFREE char *text = pw_xstrndup(head, len);
    return reply_status(text);
}

/* Queue X's reply with STATUS: its exact length announced, its bytes
 * made as the connection takes them. */
static enum MHD_Result
send_reply(struct exchange *x, unsigned status)
{
    uint64_t size = pw_reply_size(x->reply);
    struct MHD_Response *r = pw_mhd.create_response_from_callback(
        size, REPLY_BLOCK, reply_read, x, NULL);
    if (r == NULL) {
        return MHD_NO;
    }
    pw_mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                               "application/json");
    if (status == MHD_HTTP_SERVICE_UNAVAILABLE) {
        pw_mhd.add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER,
                                   RETRY_AFTER);
    }
    if (x->h->draining) {
        pw_mhd.add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    }
    add_cors(x, r);
    x->status = status;
    x->bytes = (size_t)size;
    enum MHD_Result rc = pw_mhd.queue_response(x->c, status, r);
    pw_mhd.destroy_response(r);
    return rc;
}

static enum MHD_Result
send_stream(struct exchange *x)
{
    struct MHD_Response *r = pw_mhd.create_response_from_callback(
        MHD_SIZE_UNKNOWN, SSE_BLOCK, sse_read, x, NULL);
    if (r == NULL) {
        return MHD_NO;
    }
    pw_mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                               "text/event-stream");
    pw_mhd.add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    add_cors(x, r);
    x->status = MHD_HTTP_OK;
    enum MHD_Result rc = pw_mhd.queue_response(x->c, MHD_HTTP_OK, r);
    pw_mhd.destroy_response(r);
    return rc;
}

/* Answer an exchange whose reply is known (or that streams). */
static enum MHD_Result respond_jobe(struct exchange *x);

static enum MHD_Result
respond(struct exchange *x)
{
    if (x->jobe && !x->no_reply) {
        return respond_jobe(x);
    }
    if (x->sse) {
        return send_stream(x);
    }
    if (x->no_reply && x->h->stopping) {
        return send_error(x, MHD_HTTP_SERVICE_UNAVAILABLE,
                          "server shutting down");
    }
    if (x->no_reply) {
        return send_body(x, MHD_HTTP_ACCEPTED, NULL, "", false);
    }
    return send_reply(x, reply_status_of(x));
}

/* A Jobe answer: its status, and its JSON body unless there is none. */
static enum MHD_Result
send_jobe(struct exchange *x, const struct pw_jobe_answer *a)
{
    return send_body(x, a->status, a->body != NULL ? "application/json" : NULL,
                     a->body != NULL ? a->body : "", false);
}

/* A Jobe run's answer: made from its typed result when it ended (the
 * sink's done), or from the error the server refused it with. */
static enum MHD_Result
respond_jobe(struct exchange *x)
{
    if (x->jobe_answered) {
        return send_body(x, MHD_HTTP_OK, "application/json", x->out.data,
                         false);
    }
    struct pw_jobe_answer a;
    pw_jobe_refused_answer(x->out.data, x->jobe_run_id, &a);
    enum MHD_Result rc = send_jobe(x, &a);
    pw_jobe_answer_clear(&a);
    return rc;
}

/* --- the sink --------------------------------------------------------- */

static void
wake(struct exchange *x)
{
    if (x->suspended) {
        x->suspended = false;
        pw_mhd.resume_connection(x->c);
    }
}

static void
sse_event(struct exchange *x, const char *line, struct pw_reply *r)
{
    static const char head[] = "event: message\ndata: ";
    if (x->reply == NULL) {
        x->reply = pw_reply_new();
    }
    pw_reply_text(x->reply, head, sizeof(head) - 1);
    if (r != NULL) {
        pw_reply_append(x->reply, r);
    } else {
        pw_reply_text(x->reply, line, strlen(line));
    }
    pw_reply_text(x->reply, "\n\n", 2);
}

static void
sink_reply(struct pw_sink *k, struct pw_reply *r)
{
    struct exchange *x = (struct exchange *)k;
    if (x->gone || x->finished) {
        pw_reply_free(r);
        return;
    }
    if (r == NULL) {
        x->no_reply = true;
    } else if (x->sse) {
        sse_event(x, NULL, r);
    } else if (x->jobe) {
        /* A refusal's line (short): its answer is made from it. */
        char *line = pw_reply_flatten(r);
        x->out.len = 0;
        pw_buf_append(&x->out, line, strlen(line));
        free(line);
    } else {
        pw_reply_free(x->reply);
        x->reply = r;
    }
    x->finished = true;
    wake(x);
}

/* The end of a Jobe run: its answer made now, from the typed result. */
static void
sink_jobe_done(struct pw_sink *k, const struct pw_sbx_result *run,
               const json_t *result, const struct pw_exec *call)
{
    struct exchange *x = (struct exchange *)k;
    (void)result;
    if (x->gone || x->finished) {
        return;
    }
    struct pw_jobe_answer a;
    pw_jobe_run_answer(run, call, x->jobe_run_id, x->jobe_source, &a);
    x->out.len = 0;
    if (a.body != NULL) {
        pw_buf_append(&x->out, a.body, strlen(a.body));
        x->jobe_answered = true;
    }
    pw_jobe_answer_clear(&a);
    x->finished = true;
    wake(x);
}

static void
sink_notify(struct pw_sink *k, const char *line)
{
    struct exchange *x = (struct exchange *)k;
    if (x->gone || x->finished || !x->sse_ok) {
        return;
    }
    x->sse = true;
    sse_event(x, line, NULL);
    wake(x);
}

/* --- connections ------------------------------------------------------- */

/* The text of SA's address into BUF ("?" when unknown); with PREFIX, an
 * IPv6 address's /64 (one client's share), and an IPv4 address mapped
 * into IPv6 as IPv4. */
static void
addr_text(const struct sockaddr *sa, bool prefix, char *buf, size_t len)
{
    snprintf(buf, len, "?");
    if (sa != NULL && sa->sa_family == AF_INET) {
        inet_ntop(AF_INET,
                  &((const struct sockaddr_in *)(const void *)sa)->sin_addr,
                  buf, (socklen_t)len);
        return;
    }
    if (sa == NULL || sa->sa_family != AF_INET6) {
        return;
    }
    struct in6_addr a =
        ((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
    if (prefix && IN6_IS_ADDR_V4MAPPED(&a)) {
        inet_ntop(AF_INET, &a.s6_addr[12], buf, (socklen_t)len);
        return;
    }
    if (prefix) {
        memset(&a.s6_addr[8], 0, 8);
    }
    inet_ntop(AF_INET6, &a, buf, (socklen_t)len);
    if (prefix) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "/64");
    }
}

/* The client address of C into BUF (see addr_text). */
static void
client_addr(struct MHD_Connection *c, bool prefix, char *buf, size_t len)
{
    const union MHD_ConnectionInfo *info =
        pw_mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    addr_text(info != NULL ? info->client_addr : NULL, prefix, buf, len);
}

/* True if bytes wait unread on FD: a request on its way in. */
static bool
has_input(int fd)
{
    char c;
    return fd >= 0 && recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
}

/* Close K to make room (shutdown(2): MHD closes it on its next turn). */
static void
cut_conn(struct pw_http *h, struct conn *k)
{
    (void)shutdown(k->fd, SHUT_RDWR);
    k->cut = true;
    k->deadline = 0;
    h->cut++;
}

/* Close the connection that has waited longest for a request, other than
 * NEW, from the address KEY (any address when NULL); one whose request is
 * already arriving is kept.  False when there is none. */
static bool
evict_idle(struct pw_http *h, const struct conn *new, const char *key)
{
    struct conn *oldest = NULL;
    for (struct conn *k = h->conns; k != NULL; k = k->next) {
        if (k != new && !k->active && !k->cut && k->fd >= 0 &&
            (key == NULL || strcmp(k->key, key) == 0) &&
            (oldest == NULL || k->since <= oldest->since) &&
            !has_input(k->fd)) {
            oldest = k;
        }
    }
    if (oldest == NULL) {
        return false;
    }
    pw_log(PW_LOG_INFO,
           "http: an idle connection from %s closed to make "
           "room",
           oldest->key);
    cut_conn(h, oldest);
    h->counts.evicted++;
    return true;
}

/* How many live connections come from the address KEY. */
static int
conns_from(const struct pw_http *h, const char *key)
{
    int n = 0;
    for (const struct conn *k = h->conns; k != NULL; k = k->next) {
        n += !k->cut && strcmp(k->key, key) == 0;
    }
    return n;
}

/* A new connection K: past its address's share, or past the cap, the
 * connection that waited longest without a request makes room (its
 * address's first), so that connections sending nothing cannot keep
 * others out. */
static void
make_room(struct pw_http *h, const struct conn *k)
{
    if (conns_from(h, k->key) > h->cfg->max_per_address &&
        evict_idle(h, k, k->key)) {
        return;
    }
    if (h->counts.connections - h->cut > h->cfg->max_connections) {
        (void)evict_idle(h, k, NULL);
    }
}

static void
on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
              enum MHD_ConnectionNotificationCode code)
{
    struct pw_http *h = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct conn *k = pw_xcalloc(1, sizeof(*k));
        const union MHD_ConnectionInfo *info =
            pw_mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        k->c = c;
        k->fd = info != NULL ? info->connect_fd : -1;
        k->since = pw_now();
        k->deadline = k->since + h->cfg->request_timeout_s;
        client_addr(c, true, k->key, sizeof(k->key));
        k->next = h->conns;
        h->conns = k;
        h->counts.connections++;
        *socket_context = k;
        make_room(h, k);
        return;
    }
    struct conn *k = *socket_context;
    for (struct conn **p = &h->conns; k != NULL && *p != NULL;
         p = &(*p)->next) {
        if (*p == k) {
            *p = k->next;
            h->busy -= k->counted;
            h->cut -= k->cut;
            free(k);
            h->counts.connections--;
            break;
        }
    }
    *socket_context = NULL;
}

/* True if the peer of FD has closed its side (a read would see the end). */
static bool
peer_gone(int fd)
{
    char c;
    return fd >= 0 && recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/* Cut connections whose headers or body are late (a slow client holds
 * nothing for long), and those whose client closed in the middle of a
 * request's body (looked for every PROBE_EVERY_MS: libmicrohttpd, on
 * its edge-triggered epoll, may have read the body's last bytes without
 * the end after them, and would wait for the idle timeout):
 * shutdown(2) makes MHD close them.  Returns the milliseconds to the
 * next deadline or look, or -1. */
static int
cut_late(struct pw_http *h)
{
    double now = pw_now();
    double next = 0;
    bool probe = now >= h->next_body_probe;
    bool reading = false;
    for (struct conn *k = h->conns; k != NULL; k = k->next) {
        bool body = k->in_body && k->deadline > 0 && k->fd >= 0 && !k->cut;
        if (k->deadline > 0 && now >= k->deadline && k->fd >= 0 && !k->cut) {
            pw_log(PW_LOG_INFO, "http: a request took too long to arrive");
            cut_conn(h, k);
            h->counts.deadline_cut++;
        } else if (body && probe && peer_gone(k->fd)) {
            pw_log(PW_LOG_INFO, "http: a client left in the middle of its "
                                "request's body");
            cut_conn(h, k);
        } else {
            reading = reading || body;
            if (k->deadline > 0 && (next == 0 || k->deadline < next)) {
                next = k->deadline;
            }
        }
    }
    if (probe) {
        h->next_body_probe = now + PROBE_EVERY_MS / 1000.0;
    }
    if (reading && (next == 0 || h->next_body_probe < next)) {
        next = h->next_body_probe;
    }
    return next == 0 ? -1 : (int)((next - now) * 1000) + 1;
}

/* --- requests ---------------------------------------------------------- */

static const char *
header(struct exchange *x, const char *name)
{
    return pw_mhd.lookup_connection_value(x->c, MHD_HEADER_KIND, name);
}

/* The owner of a token: requests it sent may be cancelled with it. */
static unsigned long long
token_owner(const char *tok, size_t len)
{
    unsigned long long hash = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        hash = (hash ^ (unsigned char)tok[i]) * 1099511628211ULL;
    }
    return hash;
}

/* X's client is the token at WHICH of the token file. */
static void
name_client(struct exchange *x, size_t which)
{
    snprintf(x->client, sizeof(x->client), "token:%s",
             x->h->tokens.names[which]);
}

/* A refusal of X's request by LAYER (the event log). */
static void
refused(struct exchange *x, const char *layer, const char *name)
{
    pw_events_refusal(
        x->jobe ? "jobe" : "http", x->client, NULL, layer, name,
        json_pack("{s:s,s:s}", "method", x->method, "path", x->path));
}

/* True if the Origin of X may call (else the refusal counted). */
static bool
origin_ok(struct exchange *x)
{
    struct pw_http *h = x->h;
    const char *origin = header(x, MHD_HTTP_HEADER_ORIGIN);
    if (origin != NULL && cors_origin(x) == NULL &&
        !pw_http_origin_allowed(origin, h->loopback, h->cfg->allow_origins)) {
        h->counts.forbidden++;
        refused(x, "origin", origin);
        return false;
    }
    return true;
}

/* 0 when the Origin and the token may call, else the status to answer. */
static unsigned
check_caller(struct exchange *x)
{
    struct pw_http *h = x->h;
    if (!origin_ok(x)) {
        return MHD_HTTP_FORBIDDEN;
    }
    if (!h->auth) {
        return 0;
    }
    const char *tok = NULL;
    size_t len = 0;
    size_t which = 0;
    bool bearer =
        pw_http_bearer(header(x, MHD_HTTP_HEADER_AUTHORIZATION), &tok, &len);
    if (!bearer || !pw_tokens_match(&h->tokens, tok, len, &which)) {
        h->counts.unauthorized++;
        refused(x, "auth",
                bearer ? "unknown bearer token" : "no bearer token");
        return MHD_HTTP_UNAUTHORIZED;
    }
    name_client(x, which);
    x->sink.owner = token_owner(tok, len);
    x->sink.client = x->sink.owner; /* the token's runs take turns */
    snprintf(x->owner, sizeof(x->owner), "token-%016llx", x->sink.owner);
    return 0;
}

static enum MHD_Result
caller_error(struct exchange *x, unsigned status)
{
    return send_error(x, status,
                      status == MHD_HTTP_FORBIDDEN
                          ? "forbidden: Origin not allowed"
                          : "unauthorized: a valid bearer token is needed");
}

/* GET /healthz, /readyz, /metrics. */
static enum MHD_Result
serve_ops(struct exchange *x)
{
    struct pw_http *h = x->h;
    if (strcmp(x->method, "GET") != 0 && strcmp(x->method, "HEAD") != 0) {
        return send_error(x, MHD_HTTP_METHOD_NOT_ALLOWED,
                          "method not allowed");
    }
    if (strcmp(x->path, "/healthz") == 0) {
        x->probe = true;
        return send_body(x, MHD_HTTP_OK, "text/plain", "ok\n", false);
    }
    if (strcmp(x->path, "/readyz") == 0) {
        bool ready = !h->draining && pw_http_ready(h->tools, &h->warm);
        x->probe = true;
        x->unready = ready ? 0 : h->draining ? 2 : 1;
        return send_body(x, ready ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE,
                         "text/plain", ready ? "ready\n" : "not ready\n",
                         false);
    }
    unsigned st = check_caller(x);
    if (st != 0) {
        return caller_error(x, st);
    }
    char *text = pw_http_metrics_text(h->srv, h->tools, &h->counts);
    enum MHD_Result rc =
        send_body(x, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8",
                  text, false);
    free(text);
    return rc;
}

/* Count X's request against --max-connections and its address's share:
 * false (nothing counted) when either is in use. */
static bool
take_slot(struct exchange *x)
{
    struct pw_http *h = x->h;
    struct conn *k = x->conn;
    if (h->busy >= h->cfg->max_connections) {
        h->counts.busy++;
        return false;
    }
    int mine = 0;
    for (const struct conn *o = h->conns; o != NULL; o = o->next) {
        mine += o->counted && strcmp(o->key, k->key) == 0;
    }
    if (mine >= h->cfg->max_per_address) {
        h->counts.address++;
        return false;
    }
    k->counted = true;
    h->busy++;
    return true;
}

/* 503 with Retry-After, the connection closed after it. */
static enum MHD_Result
busy_error(struct exchange *x)
{
    return send_error(x, MHD_HTTP_SERVICE_UNAVAILABLE,
                      x->h->draining
                          ? "server shutting down"
                          : "server busy: too many requests in progress "
                            "(--max-connections, "
                            "--max-connections-per-address); retry later");
}

/* With tokens and without Jobe keys, a Jobe request carries one of the
 * tokens: as X-API-KEY (what CodeRunner sends) or as a bearer token. */
static bool
jobe_caller_ok(struct exchange *x)
{
    struct pw_http *h = x->h;
    if (!h->auth || h->cfg->jobe_keys != NULL) {
        return true;
    }
    const char *key = header(x, "X-API-KEY");
    const char *tok = NULL;
    size_t len = 0;
    size_t which = 0;
    if (key != NULL) {
        tok = key;
        len = strlen(key);
    } else if (!pw_http_bearer(header(x, MHD_HTTP_HEADER_AUTHORIZATION), &tok,
                               &len)) {
        refused(x, "auth", "no X-API-KEY and no bearer token");
        return false;
    }
    if (!pw_tokens_match(&h->tokens, tok, len, &which)) {
        refused(x, "auth",
                key != NULL ? "unknown X-API-KEY" : "unknown bearer token");
        return false;
    }
    name_client(x, which);
    /* The token's runs take turns, and its files are its own. */
    x->sink.client = token_owner(tok, len);
    return true;
}

/* The checks of POST /mcp on its headers; MHD_YES with nothing queued
 * lets the body come. */
static enum MHD_Result
begin_mcp(struct exchange *x)
{
    struct pw_http *h = x->h;
    if (strcmp(x->method, "POST") != 0) {
        return send_error(x, MHD_HTTP_METHOD_NOT_ALLOWED,
                          "method not allowed: POST JSON-RPC messages to "
                          "/mcp (no server-initiated stream)");
    }
    unsigned st = check_caller(x);
    if (st != 0) {
        return caller_error(x, st);
    }
    if (h->draining || !take_slot(x)) {
        return busy_error(x);
    }
    if (!pw_http_media_is(header(x, MHD_HTTP_HEADER_CONTENT_TYPE),
                          "application/json")) {
        return send_error(x, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                          "unsupported media type: send application/json");
    }
    const char *accept = header(x, MHD_HTTP_HEADER_ACCEPT);
    if (accept != NULL &&
        !pw_http_accepts(accept, "application/json", false) &&
        !pw_http_accepts(accept, "text/event-stream", false)) {
        return send_error(x, MHD_HTTP_NOT_ACCEPTABLE,
                          "not acceptable: accept application/json or "
                          "text/event-stream");
    }
    x->sse_ok = pw_http_accepts(accept, "text/event-stream", true);
    const char *clen = header(x, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (clen != NULL && strtoll(clen, NULL, 10) > h->cfg->max_body) {
        return send_error(x, MHD_HTTP_CONTENT_TOO_LARGE,
                          "request body too large");
    }
    return MHD_YES;
}

/* X's Jobe client: whose files the cache holds. */
static void
jobe_client(const struct exchange *x, char *out, size_t size)
{
    snprintf(out, size, "%016llx", x->sink.client);
}

/* A Jobe answer given before the body was read, or once the rest of it
 * was thrown away: the connection is closed after it. */
static enum MHD_Result
send_jobe_now(struct exchange *x, struct pw_jobe_answer *a)
{
    enum MHD_Result rc =
        send_body(x, a->status, a->body != NULL ? "application/json" : NULL,
                  a->body != NULL ? a->body : "", true);
    pw_jobe_answer_clear(a);
    return rc;
}

/* A Jobe file PUT (LENGTH its Content-Length, -1 if none): true if it is
 * one, its answer then queued or its body to be read into X->put. */
static bool
begin_put(struct exchange *x, long long length)
{
    struct pw_jobe_answer a;
    char client[24];
    jobe_client(x, client, sizeof(client));
    pw_events_set_caller("jobe", x->client);
    bool put =
        pw_jobe_put_begin(x->h->jobe, x->method, x->path,
                          header(x, "X-API-KEY"), client, length, &x->put, &a);
    pw_events_set_caller("stdio", "stdio");
    if (put && x->put == NULL) {
        (void)send_jobe_now(x, &a);
    }
    return put;
}

/* The body of a Jobe file PUT, as it comes: parsed and written at once.
 * Once its answer is known (not JSON, a file past the cap), the file
 * goes and the rest of the body is thrown away as it comes (the library
 * answers once a body is over), up to the body's cap: MHD_NO past it,
 * which closes the connection. */
static enum MHD_Result
take_put(struct exchange *x, const char *data, size_t len)
{
    if (x->put_over) {
        x->put_rest += len;
        return x->put_rest > x->put_max ? MHD_NO : MHD_YES;
    }
    if (pw_jobe_put_feed(x->put, data, len, &x->put_answer) < 0) {
        x->put_over = true;
        x->put_max = (size_t)pw_jobe_put_body_left(x->put);
        pw_jobe_put_free(x->put);
        x->put = NULL;
        return x->put_max == 0 ? MHD_NO : MHD_YES;
    }
    return MHD_YES;
}

/* The checks of a Jobe route on its headers: the Origin (the API's own
 * X-API-KEY is checked with the request), the connection cap, the body's
 * size. */
static enum MHD_Result
begin_jobe(struct exchange *x)
{
    struct pw_http *h = x->h;
    x->jobe = true;
    if (!origin_ok(x)) {
        return caller_error(x, MHD_HTTP_FORBIDDEN);
    }
    const char *key = header(x, "X-API-KEY");
    if (h->cfg->jobe_keys != NULL && key != NULL) {
        /* A key's runs take turns and its files are its own (a key that
         * is not one of them is refused with the request). */
        x->sink.client = token_owner(key, strlen(key));
    }
    if (!jobe_caller_ok(x)) {
        h->counts.unauthorized++;
        struct pw_jobe_answer a;
        pw_jobe_forbidden(&a);
        enum MHD_Result rc =
            send_body(x, a.status, "application/json", a.body, true);
        pw_jobe_answer_clear(&a);
        return rc;
    }
    if (h->draining || !take_slot(x)) {
        return busy_error(x);
    }
    const char *clen = header(x, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (begin_put(x, clen != NULL ? strtoll(clen, NULL, 10) : -1)) {
        return MHD_YES;
    }
    if (clen != NULL && strtoll(clen, NULL, 10) > h->cfg->max_body) {
        return send_error(x, MHD_HTTP_CONTENT_TOO_LARGE,
                          "request body too large");
    }
    return MHD_YES;
}

static void unlink_stream(struct pw_http *h, struct exchange *x);

static void
body_work(struct pw_parse_job *pj)
{
    struct body_job *j = (struct body_job *)pj;
    if (j->jobe) {
        j->root = pw_jobe_parse_run(j->text, j->len);
    } else {
        pw_rpc_msg_parse(&j->msg, j->text, j->len);
    }
    free(j->text);
    j->text = NULL;
}

/* On the loop: the tree goes to its exchange, resumed to go on with it;
 * an exchange gone or answered (its client left) gets nothing, and the
 * tree is freed. */
static void
body_done(struct pw_parse_job *pj, bool stopping)
{
    struct body_job *j = (struct body_job *)pj;
    struct exchange *x = j->x;
    if (x != NULL) {
        x->parsing = NULL;
    }
    if (stopping || x == NULL || x->finished) {
        pw_rpc_msg_clear(&j->msg);
        json_decref(j->root);
        free(j->text);
        free(j);
        return;
    }
    x->msg = j->msg;
    x->jobe_root = j->root;
    free(j);
    x->parsed = true;
    unlink_stream(x->h, x);
    x->waiting = false;
    wake(x);
}

/* X waits for its answer (a run, a parse): on the list of streams, its
 * connection suspended until wake(). */
static void
wait_suspended(struct exchange *x)
{
    struct pw_http *h = x->h;
    x->waiting = true;
    x->next = h->streams;
    h->streams = x;
    h->counts.streams++;
    pw_mhd.suspend_connection(x->c);
    x->suspended = true;
}

/* A body of PW_PARSE_MIN bytes or more goes to the parse worker (taken
 * from X), X suspended until it is parsed: true.  False: parse it now. */
static bool
parse_off_loop(struct exchange *x, bool jobe)
{
    struct pw_http *h = x->h;
    struct pw_parse *p = pw_server_parser(h->srv);
    if (p == NULL || x->body.len < PW_PARSE_MIN) {
        return false;
    }
    struct body_job *j = pw_xcalloc(1, sizeof(*j));
    j->base.work = body_work;
    j->base.done = body_done;
    j->base.owner = x->sink.client; /* clients' bodies take turns */
    j->x = x;
    j->jobe = jobe;
    j->text = x->body.data;
    j->len = x->body.len;
    pw_buf_init(&x->body);
    x->parsing = j;
    wait_suspended(x);
    pw_parse_submit(p, &j->base);
    return true;
}

static enum MHD_Result jobe_answer(struct exchange *x,
                                   struct pw_jobe_answer *a);

/* A Jobe request whose body is in: answered now, or its run queued. */
static enum MHD_Result
finish_jobe(struct exchange *x)
{
    struct pw_http *h = x->h;
    x->conn->deadline = 0;
    if (x->too_big) {
        return send_error(x, MHD_HTTP_CONTENT_TOO_LARGE,
                          "request body too large");
    }
    x->reading = false;
    struct pw_jobe_answer a;
    char client[24];
    jobe_client(x, client, sizeof(client));
    if (x->put_over) {
        return send_jobe_now(x, &x->put_answer);
    }
    if (x->put != NULL) {
        pw_jobe_put_end(x->put, &a);
        pw_jobe_put_free(x->put);
        x->put = NULL;
        enum MHD_Result rc = send_jobe(x, &a);
        pw_jobe_answer_clear(&a);
        return rc;
    }
    if (pw_jobe_is_run(x->method, x->path) && parse_off_loop(x, true)) {
        return MHD_YES;
    }
    pw_events_set_caller("jobe", x->client);
    pw_jobe_handle(h->jobe, x->method, x->path, header(x, "X-API-KEY"), client,
                   x->body.data != NULL ? x->body.data : "", x->body.len, &a);
    /* What a queued run needs was copied from it: the body goes now. */
    pw_buf_free(&x->body);
    return jobe_answer(x, &a);
}

/* A Jobe run whose body the parse worker parsed. */
static enum MHD_Result
finish_jobe_parsed(struct exchange *x)
{
    struct pw_jobe_answer a;
    char client[24];
    jobe_client(x, client, sizeof(client));
    pw_events_set_caller("jobe", x->client);
    pw_jobe_handle_run(x->h->jobe, header(x, "X-API-KEY"), client,
                       x->jobe_root, &a);
    json_decref(x->jobe_root);
    x->jobe_root = NULL;
    return jobe_answer(x, &a);
}

/* The answer A (taken) to a Jobe request: sent now, or its run
 * queued. */
static enum MHD_Result
jobe_answer(struct exchange *x, struct pw_jobe_answer *taken)
{
    struct pw_http *h = x->h;
    struct pw_jobe_answer a = *taken;
    if (a.exec == NULL) {
        pw_events_set_caller("stdio", "stdio");
        enum MHD_Result rc = send_jobe(x, &a);
        pw_jobe_answer_clear(&a);
        return rc;
    }
    char id[40];
    snprintf(id, sizeof(id), "\"jobe-%lu\"", ++h->jobe_runs);
    struct pw_rpc_req req = {.id_raw = pw_xstrdup(id),
                             .id = json_loads(id, JSON_DECODE_ANY, NULL),
                             .sink = &x->sink};
    x->jobe_source = a.source_name;
    a.source_name = NULL;
    x->jobe_run_id = a.run_id;
    a.run_id = NULL;
    x->sink.done = sink_jobe_done;
    pw_server_activity(h->srv);
    pw_server_submit(h->srv, &req, a.exec, NULL);
    pw_events_set_caller("stdio", "stdio");
    a.exec = NULL;
    pw_rpc_req_clear(&req);
    pw_jobe_answer_clear(&a);
    if (x->finished) {
        return respond(x);
    }
    wait_suspended(x);
    return MHD_YES;
}

/* Copy SRC into DST (LEN bytes) with every byte outside printable ASCII
 * as '?': what a client sends is logged as text. */
static void
printable(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src);
    for (char *p = dst; *p != '\0'; p++) {
        if (*p < 0x20 || *p > 0x7e) {
            *p = '?';
        }
    }
}

/* True if MSG (an object or an array of them) holds a request. */
static bool
has_request(json_t *msg)
{
    if (json_is_array(msg)) {
        size_t i;
        json_t *m; /* borrowed */
        json_array_foreach(msg, i, m) {
            if (has_request(m)) {
                return true;
            }
        }
        return false;
    }
    return json_object_get(msg, "method") != NULL &&
           json_object_get(msg, "id") != NULL;
}

/* How many request headers are named NAME, in any case (count_header). */
struct header_count {
    const char *name;
    unsigned n;
};

static enum MHD_Result
count_header(void *cls, enum MHD_ValueKind kind, const char *key,
             const char *value)
{
    struct header_count *hc = cls;
    (void)kind;
    (void)value;
    hc->n += strcasecmp(key, hc->name) == 0;
    return MHD_YES;
}

/* True if the JSON string VALUE (borrowed) is what the mirrored header
 * value HDR carries (plain, or =?base64?...?=). */
static bool
header_names(const char *hdr, json_t *value)
{
    if (!json_is_string(value)) {
        return false; /* absent or null: the header has nothing to name */
    }
    struct pw_buf v;
    pw_buf_init(&v);
    bool ok =
        pw_http_param_value(hdr, &v) == 0 &&
        v.len == json_string_length(value) &&
        (v.len == 0 || memcmp(v.data, json_string_value(value), v.len) == 0);
    pw_buf_free(&v);
    return ok;
}

/* True if the tools/call MSG (borrowed) has a string argument session_id
 * equal to what the Mcp-Param-Session-Id value HDR carries. */
static bool
session_param_matches(json_t *msg, const char *hdr)
{
    json_t *params = json_object_get(msg, "params");     /* borrowed */
    json_t *args = json_object_get(params, "arguments"); /* borrowed */
    return header_names(hdr, json_object_get(args, "session_id"));
}

/* True unless HDR, the Mcp-Param-Session-Id header, disagrees with a
 * tools/call of MSG (borrowed; an object or an array of them). */
static bool
session_param_ok(json_t *msg, const char *hdr)
{
    if (json_is_array(msg)) {
        size_t i;
        json_t *m; /* borrowed */
        json_array_foreach(msg, i, m) {
            if (!session_param_ok(m, hdr)) {
                return false;
            }
        }
        return true;
    }
    const char *m = json_string_value(json_object_get(msg, "method"));
    return m == NULL || strcmp(m, "tools/call") != 0 ||
           session_param_matches(msg, hdr);
}

/* The Mcp-Param-Session-Id header, when sent, must be sent once and name
 * the session_id argument of the body's tools/call (SEP-2243): a load
 * balancer may have routed on it. */
static bool
param_headers_ok(struct exchange *x, json_t *msg)
{
    struct header_count hc = {PARAM_SESSION, 0};
    pw_mhd.get_connection_values(x->c, MHD_HEADER_KIND, count_header, &hc);
    return hc.n == 0 ||
           (hc.n == 1 && session_param_ok(msg, header(x, PARAM_SESSION)));
}

/* True if the request's Host names this server: on a loopback listener
 * (or with --allow-host), a loopback name with the listener's port or
 * none, or one of --allow-host.  An HTTP/1.0 request without Host (a
 * health checker's) passes: browsers, which DNS rebinding drives, always
 * send one; an HTTP/1.1 request must, and only one. */
static bool
host_ok(struct exchange *x, const char *version)
{
    struct pw_http *h = x->h;
    const char *host = header(x, MHD_HTTP_HEADER_HOST);
    if (!h->loopback && h->cfg->allow_hosts == NULL) {
        return true;
    }
    if (host == NULL) {
        return strcmp(version, MHD_HTTP_VERSION_1_0) == 0;
    }
    struct header_count hc = {MHD_HTTP_HEADER_HOST, 0};
    pw_mhd.get_connection_values(x->c, MHD_HEADER_KIND, count_header, &hc);
    return hc.n == 1 &&
           pw_http_host_allowed(host, h->port, h->cfg->allow_hosts);
}

/* The body's protocol version (_meta, 2026-07-28) of MSG, or NULL. */
static const char *
meta_version(json_t *msg)
{
    json_t *meta = json_object_get(json_object_get(msg, "params"), "_meta");
    return json_string_value(
        json_object_get(meta, "io.modelcontextprotocol/protocolVersion"));
}

/* The headers a client mirrors from the body (SEP-2243: Mcp-Method,
 * Mcp-Name, MCP-Protocol-Version, Mcp-Param-Session-Id), when sent, must
 * agree with MSG (borrowed): a load balancer may have acted on them.
 * NULL, or what disagrees. */
static const char *
mirrored_headers_bad(struct exchange *x, json_t *msg)
{
    bool one = json_is_object(msg);
    const char *m = json_string_value(json_object_get(msg, "method"));
    const char *hdr = header(x, "Mcp-Method");
    if (hdr != NULL && one && (m == NULL || strcmp(hdr, m) != 0)) {
        return "the Mcp-Method header does not match the body's method";
    }
    hdr = header(x, "Mcp-Name");
    if (hdr != NULL && m != NULL && strcmp(m, "tools/call") == 0 &&
        !header_names(
            hdr, json_object_get(json_object_get(msg, "params"), "name"))) {
        return "the Mcp-Name header does not match the tool's name";
    }
    hdr = header(x, "MCP-Protocol-Version");
    const char *mv = one ? meta_version(msg) : NULL;
    if (hdr != NULL && mv != NULL && strcmp(hdr, mv) != 0) {
        return "the MCP-Protocol-Version header does not match the body's "
               "_meta protocol version";
    }
    if (!param_headers_ok(x, msg)) {
        return "the " PARAM_SESSION " header does not match the session_id "
               "argument";
    }
    return NULL;
}

/* 400 and HeaderMismatch, with the id of MSG (borrowed) when it is a
 * single message. */
static enum MHD_Result
send_mismatch(struct exchange *x, json_t *msg, const char *text)
{
    char *id = json_is_object(msg) && json_object_get(msg, "id") != NULL &&
                       x->msg.id != NULL
                   ? pw_xstrdup(x->msg.id)
                   : NULL;
    char *line = pw_rpc_error_new(id, PW_RPC_HEADER_MISMATCH, text, NULL);
    free(id);
    enum MHD_Result rc = send_body(x, MHD_HTTP_BAD_REQUEST, "application/json",
                                   line, x->reading);
    free(line);
    return rc;
}

static enum MHD_Result dispatch(struct exchange *x, bool requests);
static enum MHD_Result finish_parsed(struct exchange *x);

/* The whole body is in: check it, then hand it to the MCP layer. */
static enum MHD_Result
finish_mcp(struct exchange *x)
{
    x->conn->deadline = 0;
    if (x->too_big) {
        return send_error(x, MHD_HTTP_CONTENT_TOO_LARGE,
                          "request body too large");
    }
    x->reading = false;
    if (parse_off_loop(x, false)) {
        return MHD_YES;
    }
    pw_rpc_msg_parse(&x->msg, x->body.data != NULL ? x->body.data : "",
                     x->body.len);
    pw_buf_free(&x->body);
    return finish_parsed(x);
}

/* An /mcp body parsed (X->msg): check it, then hand it to the MCP
 * layer. */
static enum MHD_Result
finish_parsed(struct exchange *x)
{
    struct pw_http *h = x->h;
    json_t *msg = x->msg.v; /* borrowed */
    if (msg == NULL || (!json_is_object(msg) && !json_is_array(msg))) {
        return send_rpc_error(x, MHD_HTTP_BAD_REQUEST,
                              msg == NULL ? PW_RPC_PARSE_ERROR
                                          : PW_RPC_INVALID_REQUEST,
                              msg == NULL ? "parse error"
                                          : "invalid request: a message "
                                            "must be a JSON object");
    }
    const char *rpc = json_string_value(json_object_get(msg, "method"));
    printable(x->rpc, sizeof(x->rpc), rpc != NULL ? rpc : "");
    const char *bad = mirrored_headers_bad(x, msg);
    if (bad != NULL) {
        char text[160];
        snprintf(text, sizeof(text), "header mismatch: %s", bad);
        return send_mismatch(x, msg, text);
    }
    const char *version = header(x, "MCP-Protocol-Version");
    if (pw_mcp_init_request(&x->mcp, h->srv, h->tools, &x->sink, version) <
        0) {
        return send_rpc_error(x, MHD_HTTP_BAD_REQUEST, -32022,
                              "Unsupported protocol version (the "
                              "MCP-Protocol-Version header)");
    }
    return dispatch(x, has_request(msg));
}

/* Hand the body (with requests when REQUESTS) to the MCP layer and answer
 * now, or suspend the connection until the reply comes. */
static enum MHD_Result
dispatch(struct exchange *x, bool requests)
{
    struct pw_http *h = x->h;
    pw_server_activity(h->srv);
    /* The caller owns the sessions it makes (without tokens, every
     * caller is one). */
    const char *before = h->tools->owner;
    h->tools->owner = x->owner[0] != '\0' ? x->owner : "http";
    pw_events_set_caller("http", x->client);
    pw_mcp_handle_msg(&x->mcp, &x->msg);
    pw_events_set_caller("stdio", "stdio");
    h->tools->owner = before;
    if (!requests) {
        /* Notifications and responses: accepted, unless the MCP layer
         * found one invalid (its error, with a null id). */
        return x->finished && !x->no_reply && x->reply != NULL
                   ? send_reply(x, MHD_HTTP_BAD_REQUEST)
                   : send_body(x, MHD_HTTP_ACCEPTED, NULL, "", false);
    }
    if (x->finished || x->sse) {
        return respond(x);
    }
    wait_suspended(x);
    return MHD_YES;
}

/* The queue's client key of the peer of C without a token: its address
 * (not its port: a client's connections take turns together). */
static unsigned long long
address_client(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info =
        pw_mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = info != NULL ? info->client_addr : NULL;
    if (sa != NULL && sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const void *)sa;
        return token_owner((const char *)&in->sin_addr, sizeof(in->sin_addr));
    }
    if (sa != NULL && sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const void *)sa;
        return token_owner((const char *)&in6->sin6_addr,
                           sizeof(in6->sin6_addr));
    }
    return 1; /* a Unix socket: one client */
}

static struct exchange *
exchange_new(struct pw_http *h, struct MHD_Connection *c, const char *url,
             const char *method)
{
    struct exchange *x = pw_xcalloc(1, sizeof(*x));
    x->sink.reply = sink_reply;
    x->sink.notify = sink_notify;
    x->h = h;
    x->c = c;
    x->start = pw_now();
    x->reading = true;
    pw_buf_init(&x->body);
    pw_buf_init(&x->out);
    printable(x->method, sizeof(x->method), method);
    printable(x->path, sizeof(x->path), url);
    const union MHD_ConnectionInfo *info =
        pw_mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    x->conn = info != NULL ? info->socket_context : NULL;
    x->sink.client = address_client(c); /* a token replaces it */
    snprintf(x->client, sizeof(x->client), "addr:%s",
             x->conn != NULL && x->conn->key[0] != '\0' ? x->conn->key
                                                        : "local");
    return x;
}

/* Keep the body, up to the cap. */
static void
take_body(struct exchange *x, const char *data, size_t len)
{
    if (x->body.len + len > (size_t)x->h->cfg->max_body) {
        x->too_big = true;
    }
    if (!x->too_big) {
        pw_buf_append(&x->body, data, len);
    }
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url,
           const char *method, const char *version, const char *upload,
           size_t *upload_size, void **con_cls)
{
    struct pw_http *h = cls;
    struct exchange *x = *con_cls;
    if (x == NULL) {
        x = exchange_new(h, c, url, method);
        *con_cls = x;
        if (x->conn == NULL) {
            return send_error(x, MHD_HTTP_INTERNAL_SERVER_ERROR, "no state");
        }
        x->conn->active = true;
        if (!host_ok(x, version)) {
            h->counts.host++;
            const char *host = header(x, MHD_HTTP_HEADER_HOST);
            refused(x, "host", host != NULL ? host : "(none)");
            return send_error(x, MHD_HTTP_FORBIDDEN,
                              "forbidden: the Host header does not name this "
                              "server (a loopback name with its port, or "
                              "one of --allow-host)");
        }
        if (strcmp(url, "/mcp") == 0 && strcmp(method, "OPTIONS") == 0 &&
            cors_origin(x) != NULL) {
            /* A browser's preflight: no token comes with it. */
            return send_body(x, MHD_HTTP_NO_CONTENT, NULL, "", false);
        }
        if (strcmp(url, "/mcp") == 0) {
            return begin_mcp(x);
        }
        if (h->jobe != NULL && pw_jobe_route(url)) {
            return begin_jobe(x);
        }
        if (strcmp(url, "/healthz") == 0 || strcmp(url, "/readyz") == 0 ||
            strcmp(url, "/metrics") == 0) {
            return serve_ops(x);
        }
        return send_error(x, MHD_HTTP_NOT_FOUND, "not found: MCP is at /mcp");
    }
    if (x->reading && *upload_size > 0 && x->conn != NULL) {
        x->conn->in_body = true;
    }
    if (x->reading && *upload_size > 0 && (x->put != NULL || x->put_over)) {
        enum MHD_Result rc = take_put(x, upload, *upload_size);
        *upload_size = 0;
        return rc;
    }
    if (x->reading && *upload_size > 0) {
        take_body(x, upload, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    if (x->reading) {
        return x->jobe ? finish_jobe(x) : finish_mcp(x);
    }
    if (x->parsed) {
        x->parsed = false;
        return x->jobe ? finish_jobe_parsed(x) : finish_parsed(x);
    }
    return respond(x);
}

static void
unlink_stream(struct pw_http *h, struct exchange *x)
{
    for (struct exchange **p = &h->streams; *p != NULL; p = &(*p)->next) {
        if (*p == x) {
            *p = x->next;
            h->counts.streams--;
            return;
        }
    }
}

static void
on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
             enum MHD_RequestTerminationCode toe)
{
    struct pw_http *h = cls;
    struct exchange *x = *con_cls;
    if (x == NULL) {
        return;
    }
    *con_cls = NULL;
    x->gone = true;
    if (x->waiting) {
        pw_server_cancel_sink(h->srv, &x->sink);
        unlink_stream(h, x);
    }
    struct conn *k = x->conn;
    if (k != NULL) {
        /* Back to waiting for a request: evictable, and its deadline
         * set again. */
        k->since = pw_now();
        k->active = false;
        k->in_body = false;
        h->busy -= k->counted;
        k->counted = false;
        k->deadline = k->cut ? 0
                             : k->since + h->cfg->request_timeout_s +
                                   h->cfg->idle_timeout_s;
    }
    char addr[INET6_ADDRSTRLEN] = "?";
    client_addr(c, false, addr, sizeof(addr));
    unsigned st = toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? x->status
                  : x->status != 0                           ? x->status
                                                             : 499;
    /* /readyz's 503 is its answer, not a server error: counted apart. */
    if (x->unready != 0 && st == MHD_HTTP_SERVICE_UNAVAILABLE) {
        h->counts.not_ready[x->unready - 1]++;
    } else {
        h->counts.requests[st >= 100 && st < 600 ? st / 100 - 1 : 5]++;
    }
    if (!x->probe || h->cfg->log_probes) {
        pw_http_access_log(addr, x->method, x->path, x->rpc, st,
                           pw_now() - x->start, x->bytes);
    }
    if (x->parsing != NULL) {
        x->parsing->x = NULL; /* its tree is freed when it comes back */
    }
    pw_rpc_msg_clear(&x->msg);
    json_decref(x->jobe_root);
    pw_jobe_put_free(x->put);
    pw_jobe_answer_clear(&x->put_answer);
    pw_buf_free(&x->body);
    pw_buf_free(&x->out);
    pw_reply_free(x->reply); /* its files' fds closed */
    free(x->jobe_source);
    free(x->jobe_run_id);
    free(x);
}

/* --- the transport ----------------------------------------------------- */

/* A client that closed its connection while its run is in flight (MHD
 * does not watch suspended connections): its runs are killed and the
 * connection resumed, to be closed. */
static void
probe_gone(struct pw_http *h)
{
    double now = pw_now();
    if (now < h->next_probe) {
        return;
    }
    h->next_probe = now + PROBE_EVERY_MS / 1000.0;
    for (struct exchange *x = h->streams; x != NULL; x = x->next) {
        if (x->suspended && !x->finished && x->conn != NULL &&
            peer_gone(x->conn->fd)) {
            pw_log(PW_LOG_INFO, "http: a client left before its answer");
            pw_server_cancel_sink(h->srv, &x->sink);
            x->no_reply = true;
            x->finished = true;
            wake(x);
        }
    }
}

static int
tr_pollfds(void *ctx, struct pollfd *fds, int max, int *timeout_ms)
{
    struct pw_http *h = ctx;
    const union MHD_DaemonInfo *info =
        pw_mhd.get_daemon_info(h->d, MHD_DAEMON_INFO_EPOLL_FD);
    if (info == NULL || max < 1) {
        return 0;
    }
    fds[0] = (struct pollfd){info->epoll_fd, POLLIN, 0};
    (void)pw_http_ready(h->tools, &h->warm); /* notes the pool's warmth */
    MHD_UNSIGNED_LONG_LONG mhd_ms = 0;
    probe_gone(h);
    int ms = cut_late(h);
    int expiry = h->jobe != NULL ? pw_jobe_tick(h->jobe) : -1;
    if (expiry >= 0 && (ms < 0 || expiry < ms)) {
        ms = expiry;
    }
    if (h->streams != NULL && (ms < 0 || ms > PROBE_EVERY_MS)) {
        ms = PROBE_EVERY_MS;
    }
    if (pw_mhd.get_timeout(h->d, &mhd_ms) == MHD_YES &&
        (ms < 0 || mhd_ms < (MHD_UNSIGNED_LONG_LONG)ms)) {
        ms = mhd_ms > 60000 ? 60000 : (int)mhd_ms;
    }
    *timeout_ms = ms;
    return 1;
}

/* At its connection limit libmicrohttpd takes the listening socket out
 * of its epoll set, and puts it back on a later run once connections
 * closed: that run is made at once (nothing else would wake the loop). */
static void
tr_dispatch(void *ctx, const struct pollfd *fds, int n)
{
    struct pw_http *h = ctx;
    int before = h->counts.connections;
    pw_mhd.run(h->d);
    if (h->counts.connections < before) {
        pw_mhd.run(h->d);
    }
}

/* Read the token file into H's tokens: 0, or -1 with ERR (the tokens
 * are then unchanged). */
static int
load_tokens(struct pw_http *h, struct pw_error *err)
{
    struct pw_buf b;
    pw_buf_init(&b);
    if (pw_read_file(h->cfg->auth_token_file, TOKEN_MAX, &b, err) < 0) {
        pw_buf_free(&b);
        return -1;
    }
    struct pw_tokens t;
    pw_tokens_parse(&t, b.data, b.len);
    pw_buf_free(&b);
    if (t.n == 0) {
        pw_tokens_free(&t);
        return pw_fail(err, PW_ERR_USAGE, "%s: no token in the file",
                       h->cfg->auth_token_file);
    }
    pw_tokens_free(&h->tokens);
    h->tokens = t;
    return 0;
}

static void
tr_signal(void *ctx, int sig)
{
    struct pw_http *h = ctx;
    struct pw_error err = {0};
    if (sig == SIGHUP && h->auth) {
        if (load_tokens(h, &err) < 0) {
            pw_warn("SIGHUP: tokens kept: %s", err.message);
        } else {
            pw_log(PW_LOG_WARN, "SIGHUP: %zu token(s) loaded", h->tokens.n);
        }
        return;
    }
    if (sig != SIGHUP && !h->draining) {
        h->draining = true;
        int fd = pw_mhd.quiesce_daemon(h->d);
        if (fd >= 0) {
            (void)close(fd);
        }
    }
}

static bool
tr_idle(void *ctx)
{
    const struct pw_http *h = ctx;
    return h->streams == NULL;
}

/* --- setup ------------------------------------------------------------- */

/* Note SS's numeric address and port in H, and whether it is loopback. */
static void
note_address(struct pw_http *h, const struct sockaddr_storage *ss)
{
    const struct sockaddr_in *in = (const void *)ss;
    const struct sockaddr_in6 *in6 = (const void *)ss;
    bool v6 = ss->ss_family == AF_INET6;
    inet_ntop(ss->ss_family,
              v6 ? (const void *)&in6->sin6_addr : (const void *)&in->sin_addr,
              h->addr, sizeof(h->addr));
    h->port = ntohs(v6 ? in6->sin6_port : in->sin_port);
    h->loopback = pw_http_host_is_loopback(h->addr, strlen(h->addr));
}

/* Resolve HOST:PORT into SS; H->loopback says whether it is loopback. */
static int
resolve(struct pw_http *h, const char *spec, struct sockaddr_storage *ss,
        struct pw_error *err)
{
    char host[256];
    unsigned port = 0;
    if (pw_http_parse_listen(spec, host, sizeof(host), &port) < 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "--http: expected HOST:PORT, got '%s'", spec);
    }
    struct addrinfo hints = {.ai_flags = AI_PASSIVE,
                             .ai_socktype = SOCK_STREAM};
    struct addrinfo *ai = NULL;
    char portstr[8];
    snprintf(portstr, sizeof(portstr), "%u", port);
    int rc = getaddrinfo(host, portstr, &hints, &ai);
    if (rc != 0) {
        return pw_fail(err, PW_ERR_USAGE, "--http: %s: %s", host,
                       gai_strerror(rc));
    }
    memcpy(ss, ai->ai_addr, ai->ai_addrlen);
    freeaddrinfo(ai);
    note_address(h, ss);
    snprintf(h->where, sizeof(h->where), "--http %s", spec);
    return 0;
}

/* The socket a service manager passed (CFG's listen_fd): its address
 * into SS, as resolve() does for --http's; --http's HOST:PORT is not
 * used. */
static int
inherited(struct pw_http *h, struct sockaddr_storage *ss, struct pw_error *err)
{
    if (pw_listen_fd_address(h->cfg->listen_fd, ss, err) < 0) {
        return -1;
    }
    note_address(h, ss);
    bool v6 = ss->ss_family == AF_INET6;
    snprintf(h->where, sizeof(h->where),
             "the socket passed by systemd (%s%s%s:%u)", v6 ? "[" : "",
             h->addr, v6 ? "]" : "", h->port);
    return 0;
}

static int
load_tls(struct pw_http *h, struct pw_error *err)
{
    const struct pw_conf *cfg = h->cfg;
    if ((cfg->tls_cert == NULL) != (cfg->tls_key == NULL)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "--tls-cert and --tls-key go together");
    }
    if (cfg->tls_cert == NULL) {
        return 0;
    }
    struct pw_buf b;
    pw_buf_init(&b);
    if (pw_read_file(cfg->tls_cert, TLS_FILE_MAX, &b, err) < 0) {
        pw_buf_free(&b);
        return -1;
    }
    h->tls_cert = pw_buf_take(&b, NULL);
    if (pw_read_file(cfg->tls_key, TLS_FILE_MAX, &b, err) < 0) {
        pw_buf_free(&b);
        return -1;
    }
    h->tls_key = pw_buf_take(&b, NULL);
    return 0;
}

/* libmicrohttpd's own messages (a client gone mid-answer, a malformed
 * request): logged at info level, not on every deployment's stderr. */
static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
    char msg[512];
    (void)vsnprintf(msg, sizeof(msg), fmt, ap);
    msg[strcspn(msg, "\n")] = '\0';
    pw_log(PW_LOG_INFO, "http: %s", msg);
}

static int
start_daemon(struct pw_http *h, const struct sockaddr_storage *ss,
             struct pw_error *err)
{
    unsigned flags =
        MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    flags |= ss->ss_family == AF_INET6 ? MHD_USE_IPv6 : 0;
    flags |= h->tls_cert != NULL ? MHD_USE_TLS : 0;
    struct MHD_OptionItem tls[] = {
        {MHD_OPTION_HTTPS_MEM_CERT, 0, h->tls_cert},
        {MHD_OPTION_HTTPS_MEM_KEY, 0, h->tls_key},
        {MHD_OPTION_END, 0, NULL},
    };
    struct MHD_OptionItem listen[] = {
        {MHD_OPTION_LISTEN_SOCKET, h->cfg->listen_fd, NULL},
        {MHD_OPTION_SOCK_ADDR, 0, (void *)ss},
        {MHD_OPTION_END, 0, NULL},
    };
    h->d = pw_mhd.start_daemon(
        flags, 0, NULL, NULL, on_request, h, MHD_OPTION_ARRAY,
        h->cfg->listen_fd > 0 ? listen : listen + 1,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
        MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)(h->cfg->max_connections + RESERVE_CON),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)h->cfg->idle_timeout_s,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)64 * 1024,
        MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h, MHD_OPTION_ARRAY,
        h->tls_cert != NULL ? tls : tls + 2, MHD_OPTION_END);
    if (h->d == NULL) {
        return pw_fail(err, PW_ERR_IO,
                       "%s: cannot listen (address in use or not "
                       "available?)",
                       h->where);
    }
    return 0;
}

struct pw_http *
pw_http_new(const struct pw_conf *cfg, struct pw_server *srv,
            struct pw_tools *tools, struct pw_error *err)
{
    struct pw_http *h = pw_xcalloc(1, sizeof(*h));
    h->cfg = cfg;
    h->srv = srv;
    h->tools = tools;
    struct sockaddr_storage ss = {0};
    h->auth = cfg->auth_token_file != NULL;
    if ((cfg->listen_fd > 0 ? inherited(h, &ss, err)
                            : resolve(h, cfg->http, &ss, err)) < 0 ||
        (h->auth && load_tokens(h, err) < 0) || load_tls(h, err) < 0) {
        pw_http_free(h);
        return NULL;
    }
    if (cfg->jobe && (h->jobe = pw_jobe_new(cfg, tools, err)) == NULL) {
        pw_http_free(h);
        return NULL;
    }
    if (!h->loopback && cfg->jobe && cfg->jobe_keys == NULL) {
        pw_fail(err, PW_ERR_USAGE,
                "%s is not a loopback address: the Jobe API there needs "
                "--jobe-keys",
                h->where);
        pw_http_free(h);
        return NULL;
    }
    if (!h->loopback && !h->auth) {
        pw_fail(err, PW_ERR_USAGE,
                "%s is not a loopback address: serving it needs "
                "--auth-token-file",
                h->where);
        pw_http_free(h);
        return NULL;
    }
    if (pw_mhd_load(err) < 0 || start_daemon(h, &ss, err) < 0) {
        pw_http_free(h);
        return NULL;
    }
    struct pw_server_transport tr = {tr_pollfds, tr_dispatch, tr_signal,
                                     tr_idle, h};
    pw_server_set_transport(srv, &tr, cfg->grace_s);
    pw_server_set_max_queued(srv, cfg->max_queued);
    const union MHD_DaemonInfo *info =
        pw_mhd.get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    if (info != NULL && info->port != 0) {
        h->port = info->port; /* port 0 asked: the one given */
    }
    bool v6 = ss.ss_family == AF_INET6;
    fprintf(stderr, "pyward: serving MCP on %s://%s%s%s:%u/mcp%s%s\n",
            h->tls_cert != NULL ? "https" : "http", v6 ? "[" : "", h->addr,
            v6 ? "]" : "", h->port,
            h->jobe != NULL ? " and the Jobe API at /jobe/index.php/restapi/"
                            : "",
            cfg->listen_fd > 0 ? " (socket passed by systemd)" : "");
    return h;
}

void
pw_http_free(struct pw_http *h)
{
    if (h == NULL) {
        return;
    }
    h->stopping = true;
    if (h->d != NULL) {
        /* What still waits for a run gets its 503, then connections
         * close. */
        for (struct exchange *x = h->streams; x != NULL; x = x->next) {
            if (!x->finished) {
                x->no_reply = true;
                x->finished = true;
                wake(x);
            }
        }
        double until = pw_now() + 1.0;
        while (h->streams != NULL && pw_now() < until) {
            pw_mhd.run(h->d);
            struct pollfd p = {
                pw_mhd.get_daemon_info(h->d, MHD_DAEMON_INFO_EPOLL_FD)
                    ->epoll_fd,
                POLLIN, 0};
            (void)poll(&p, 1, 20);
        }
        pw_mhd.stop_daemon(h->d);
    }
    pw_tokens_free(&h->tokens);
    pw_jobe_free(h->jobe);
    free(h->tls_cert);
    free(h->tls_key);
    free(h);
}
