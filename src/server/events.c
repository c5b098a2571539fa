/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * events.c - the security event log (see events.h): records built as
 * JSON objects and written as escaped ASCII lines (every string through
 * jansson: newlines, NULs, quotes and bytes that are not UTF-8 can never
 * end or forge a record), or as journald datagrams; per-client counters
 * and rate limits.
 *
 * Defines pw_events_*.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/sha256.h"
#include "core/util.h"
#include "server/events.h"

#define JOURNAL_SOCKET "/run/systemd/journal/socket"
#define CLIENT_MAX     96 /* bytes of a client's name */
#define OTHER_CLIENT   "_other"
#define SUMMARY_EVERY  1.0 /* seconds between a client's summaries */
#define CLOSE_WAIT_S   1.0
#define NAME_MAX_BYTES 200 /* of a refusal's name */
#define DUMP_FLAGS     (JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(9))

/* The layers refusals are counted by (/metrics labels); others count as
 * "other". */
static const char *const layers[] = {
    "validator", "guard",  "audit", "hook",     "seccomp", "os",    "limits",
    "auth",      "origin", "host",  "jobe_key", "session", "other",
};
#define NLAYERS PW_N_ELEMENTS(layers)

struct client {
    char name[CLIENT_MAX];
    unsigned long long runs;
    unsigned long long refused[NLAYERS];
    double cpu_s, wall_s;
    double tokens, refilled; /* the refusals' bucket */
    unsigned long long suppressed;
    double suppressed_since; /* the first suppressed refusal's time */
    char first[32];          /* its wall-clock time */
};

static struct {
    bool on;
    bool log_code;
    int fd;      /* the stream's, or -1 */
    bool own_fd; /* opened here: closed at the end */
    bool socket; /* send with MSG_DONTWAIT */
    bool check;  /* a blocking fd shared with others: poll before */
    bool broken; /* its reader is gone */
    int share;   /* a pipe shared with the log lines: the bytes it may
                    hold before a record waits (half of it), or 0 */
    int journal; /* journald's socket, or -1 */
    struct pw_buf buf;
    size_t off;                         /* written of BUF */
    unsigned long long dropped;         /* records that did not fit */
    unsigned long long dropped_total;   /* all of them, for /metrics */
    unsigned long long journal_dropped; /* datagrams refused */
    char where[300];
    char door[16];
    char client[CLIENT_MAX];
    struct client clients[PW_EVENTS_CLIENTS_MAX + 1]; /* the last: _other */
    size_t nclients;
    bool other_used;
    size_t suppressing; /* clients with suppressed refusals */
} ev = {.fd = -1, .journal = -1, .door = "stdio", .client = "stdio"};

/* --- time and names ---------------------------------------------------- */

/* The wall clock as 2026-01-02T03:04:05.678Z. */
static void
timestamp(char *out, size_t len)
{
    struct timespec now;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    size_t n = strftime(out, len, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, len - n, ".%03dZ", (int)(now.tv_nsec / 1000000) % 1000);
}

static const char *
signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGKILL, "SIGKILL"}, {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"},
        {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGTERM, "SIGTERM"},
        {SIGINT, "SIGINT"},   {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
        {SIGILL, "SIGILL"},   {SIGXFSZ, "SIGXFSZ"}, {SIGPIPE, "SIGPIPE"},
        {SIGHUP, "SIGHUP"},   {SIGTRAP, "SIGTRAP"},
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(names); i++) {
        if (names[i].sig == sig) {
            return names[i].name;
        }
    }
    return NULL;
}

/* A new JSON string of LEN bytes of S, bytes that are not UTF-8 each
 * replaced by U+FFFD (jansson refuses them). */
static json_t *
text_json(const char *s, size_t len)
{
    json_t *j = json_stringn(s, len);
    if (j != NULL) {
        return j;
    }
    struct pw_buf b;
    pw_buf_init(&b);
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        size_t n = c < 0x80             ? 1
                   : (c & 0xe0) == 0xc0 ? 2
                   : (c & 0xf0) == 0xe0 ? 3
                   : (c & 0xf8) == 0xf0 ? 4
                                        : 0;
        if (n > 0 && i + n <= len) {
            json_t *one = json_stringn(s + i, n);
            if (one != NULL) {
                json_decref(one);
                pw_buf_append(&b, s + i, n);
                i += n;
                continue;
            }
        }
        pw_buf_append(&b, "\xef\xbf\xbd", 3);
        i++;
    }
    j = json_stringn(b.data != NULL ? b.data : "", b.len);
    pw_buf_free(&b);
    return j;
}

static json_t *
str_or_null(const char *s)
{
    return s != NULL ? text_json(s, strlen(s)) : json_null();
}

/* --- writing ------------------------------------------------------------ */

/* Write what waits as far as the fd takes it. */
static void
flush_stream(void)
{
    while (ev.fd >= 0 && !ev.broken && ev.off < ev.buf.len) {
        size_t n = ev.buf.len - ev.off;
        int queued = 0;
        if (ev.share > 0 && ioctl(ev.fd, FIONREAD, &queued) == 0) {
            /* The other half stays free for the log lines, whose writes
             * block when it is full. */
            if (queued >= ev.share) {
                return;
            }
            n = n < (size_t)(ev.share - queued) ? n
                                                : (size_t)(ev.share - queued);
        }
        if (ev.check) {
            struct pollfd p = {ev.fd, POLLOUT, 0};
            if (poll(&p, 1, 0) != 1 || !(p.revents & POLLOUT)) {
                return;
            }
            n = n > 4096 ? 4096 : n; /* what a writable pipe takes whole */
        }
        ssize_t w = ev.socket ? send(ev.fd, ev.buf.data + ev.off, n,
                                     MSG_DONTWAIT | MSG_NOSIGNAL)
                              : write(ev.fd, ev.buf.data + ev.off, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        }
        if (w <= 0) {
            /* The reader is gone: what waits is lost, and counted; the
             * stream is not written again. */
            ev.dropped++;
            ev.dropped_total++;
            ev.off = ev.buf.len;
            ev.broken = true;
            break;
        }
        ev.off += (size_t)w;
    }
    if (ev.off == ev.buf.len) {
        ev.buf.len = 0;
        ev.off = 0;
    } else if (ev.off > PW_EVENTS_BUFFER / 2) {
        memmove(ev.buf.data, ev.buf.data + ev.off, ev.buf.len - ev.off);
        ev.buf.len -= ev.off;
        ev.off = 0;
    }
}

static void put_record(json_t *rec);

/* The line that says how many records were dropped, once there is room
 * for it. */
static void
say_dropped(void)
{
    if (ev.dropped == 0 || ev.buf.len - ev.off > PW_EVENTS_BUFFER / 2) {
        return;
    }
    char ts[32];
    timestamp(ts, sizeof(ts));
    json_t *rec = json_pack("{s:s,s:s,s:I}", "time", ts, "event",
                            "events_dropped", "count", (json_int_t)ev.dropped);
    ev.dropped = 0;
    put_record(rec);
}

/* One journald field KEY=VALUE, in the binary form when VALUE holds a
 * newline. */
static void
journal_field(struct pw_buf *b, const char *key, const char *value, size_t len)
{
    if (memchr(value, '\n', len) == NULL) {
        pw_buf_printf(b, "%s=", key);
        pw_buf_append(b, value, len);
        pw_buf_append(b, "\n", 1);
        return;
    }
    pw_buf_printf(b, "%s\n", key);
    unsigned char le[8];
    for (int i = 0; i < 8; i++) {
        le[i] = (unsigned char)((unsigned long long)len >> (8 * i));
    }
    pw_buf_append(b, (const char *)le, 8);
    pw_buf_append(b, value, len);
    pw_buf_append(b, "\n", 1);
}

/* REC as one datagram: its fields as PYWARD_<KEY> (strings as they are,
 * other values as JSON), the whole record as PYWARD_RECORD. */
static void
put_journal(json_t *rec, const char *line)
{
    struct pw_buf b;
    pw_buf_init(&b);
    const char *event = json_string_value(json_object_get(rec, "event"));
    bool run = event != NULL && strcmp(event, "run") == 0;
    char msg[256];
    snprintf(msg, sizeof(msg), "pyward %s: %s %s", event != NULL ? event : "",
             json_string_value(json_object_get(rec, "client")) != NULL
                 ? json_string_value(json_object_get(rec, "client"))
                 : "",
             run ? (json_string_value(json_object_get(rec, "verdict")) != NULL
                        ? json_string_value(json_object_get(rec, "verdict"))
                        : "")
                 : (json_string_value(json_object_get(rec, "layer")) != NULL
                        ? json_string_value(json_object_get(rec, "layer"))
                        : ""));
    journal_field(&b, "MESSAGE", msg, strlen(msg));
    journal_field(&b, "PRIORITY", run ? "6" : "4", 1);
    journal_field(&b, "SYSLOG_IDENTIFIER", "pyward", 6);
    const char *key;
    json_t *v; /* borrowed */
    json_object_foreach(rec, key, v) {
        char name[64] = "PYWARD_";
        size_t k = strlen(name);
        for (const char *p = key; *p != '\0' && k < sizeof(name) - 1; p++) {
            char c = *p;
            name[k++] = c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A')
                        : (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                            ? c
                            : '_';
        }
        name[k] = '\0';
        if (json_is_string(v)) {
            journal_field(&b, name, json_string_value(v),
                          json_string_length(v));
            continue;
        }
        char *text = json_dumps(v, DUMP_FLAGS | JSON_ENCODE_ANY);
        if (text != NULL) {
            journal_field(&b, name, text, strlen(text));
            free(text);
        }
    }
    journal_field(&b, "PYWARD_RECORD", line, strlen(line));
    if (send(ev.journal, b.data, b.len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
        ev.journal_dropped++;
    }
    pw_buf_free(&b);
}

/* Write REC (stolen; NULL is ignored: it could not be built). */
static void
put_record(json_t *rec)
{
    if (rec == NULL) {
        return;
    }
    char *line = json_dumps(rec, DUMP_FLAGS);
    if (line == NULL) {
        json_decref(rec);
        return;
    }
    if (ev.journal >= 0) {
        put_journal(rec, line);
    }
    json_decref(rec);
    if (ev.fd >= 0 && ev.broken) {
        ev.dropped_total++;
    } else if (ev.fd >= 0) {
        size_t len = strlen(line);
        if (ev.buf.len - ev.off + len + 1 > PW_EVENTS_BUFFER) {
            ev.dropped++;
            ev.dropped_total++;
        } else {
            pw_buf_append(&ev.buf, line, len);
            pw_buf_append(&ev.buf, "\n", 1);
            flush_stream();
        }
    }
    free(line);
}

/* A record's head: time and kind. */
static json_t *
record_new(const char *event)
{
    char ts[32];
    timestamp(ts, sizeof(ts));
    return json_pack("{s:s,s:s}", "time", ts, "event", event);
}

/* --- opening ------------------------------------------------------------ */

/* The stream FD (borrowed, or OWN): how to write it without blocking. */
static int
use_stream(int fd, bool own, const char *name, struct pw_error *err)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        return pw_fail(err, PW_ERR_USAGE, "--event-log %s: %s", name,
                       strerror(errno));
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
        return pw_fail(err, PW_ERR_USAGE,
                       "--event-log %s: not open for writing", name);
    }
    ev.fd = fd;
    ev.own_fd = own;
    if (S_ISSOCK(st.st_mode)) {
        ev.socket = true; /* MSG_DONTWAIT whatever the fd's flags */
    } else if (!S_ISREG(st.st_mode) && !(fl & O_NONBLOCK)) {
        /* A pipe or a terminal: an open file description of its own
         * (non-blocking, the other writers' untouched), else a look
         * before each write. */
        char path[64];
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        int nfd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (nfd >= 0) {
            if (own) {
                (void)close(fd);
            }
            ev.fd = nfd;
            ev.own_fd = true;
        } else {
            ev.check = true;
        }
    }
    snprintf(ev.where, sizeof(ev.where), "%s", name);
    return 0;
}

/* journald's native socket (PATH, NULL: the system's), connected; -1
 * when it cannot be. */
static int
journal_connect(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        return -1;
    }
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof(sa.sun_path), "%s",
             path != NULL ? path : JOURNAL_SOCKET);
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        int saved = errno;
        (void)close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* "journal" when SPEC (NULL: the default) means journald. */
static const char *
effective(const char *spec)
{
    if (spec != NULL && spec[0] != '\0') {
        return spec;
    }
    const char *js = getenv("JOURNAL_STREAM");
    return js != NULL && js[0] != '\0' ? "journal" : "stderr";
}

void
pw_events_describe(const char *spec, char *buf, size_t len)
{
    const char *e = effective(spec);
    if (strcmp(e, "off") == 0) {
        snprintf(buf, len, "off (--event-log off)");
    } else if (strncmp(e, "journal:", 8) == 0) {
        snprintf(buf, len, "journald's native protocol on %s", e + 8);
    } else if (strcmp(e, "journal") == 0) {
        snprintf(buf, len, "journald (%s)%s", JOURNAL_SOCKET,
                 spec == NULL || spec[0] == '\0'
                     ? ": $JOURNAL_STREAM says stderr is the journal"
                     : "");
    } else if (strcmp(e, "stderr") == 0) {
        snprintf(buf, len, "stderr, as JSON lines");
    } else if (strncmp(e, "fd:", 3) == 0) {
        snprintf(buf, len, "file descriptor %s, as JSON lines", e + 3);
    } else {
        snprintf(buf, len, "%s, as JSON lines (appended)", e);
    }
}

int
pw_events_open(const char *spec, bool log_code, struct pw_error *err)
{
    const char *e = effective(spec);
    ev.log_code = log_code;
    pw_buf_init(&ev.buf);
    if (strcmp(e, "off") == 0) {
        snprintf(ev.where, sizeof(ev.where), "off");
        return 0;
    }
    if (strcmp(e, "journal") == 0 || strncmp(e, "journal:", 8) == 0) {
        const char *path = e[7] == ':' ? e + 8 : NULL;
        if ((ev.journal = journal_connect(path)) < 0) {
            if (spec != NULL && spec[0] != '\0') {
                return pw_fail(err, PW_ERR_USAGE,
                               "--event-log %s: cannot connect to %s: %s", e,
                               path != NULL ? path : JOURNAL_SOCKET,
                               strerror(errno));
            }
            /* $JOURNAL_STREAM without the socket: stderr it is. */
            return use_stream(2, false, "stderr", err) < 0 ? -1
                                                           : (ev.on = true, 0);
        }
        snprintf(ev.where, sizeof(ev.where), "journal");
        ev.on = true;
        return 0;
    }
    int rc;
    if (strcmp(e, "stderr") == 0) {
        rc = use_stream(2, false, "stderr", err);
        struct stat st;
        if (rc == 0 && fstat(ev.fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
            int size = fcntl(ev.fd, F_GETPIPE_SZ);
            ev.share = size > 0 ? size / 2 : 0;
        }
    } else if (strncmp(e, "fd:", 3) == 0) {
        char *end = NULL;
        long n = strtol(e + 3, &end, 10);
        if (e[3] == '\0' || *end != '\0' || n < 0 || n > 65535) {
            return pw_fail(err, PW_ERR_USAGE,
                           "--event-log %s: fd:N takes a file descriptor", e);
        }
        if (n == 1) {
            return pw_fail(err, PW_ERR_USAGE,
                           "--event-log fd:1: standard output carries the "
                           "protocol");
        }
        rc = use_stream((int)n, false, e, err);
    } else {
        int fd = open(e, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY,
                      0640);
        if (fd < 0) {
            return pw_fail(err, PW_ERR_USAGE, "--event-log %s: %s", e,
                           strerror(errno));
        }
        rc = use_stream(fd, true, e, err);
    }
    if (rc < 0) {
        return -1;
    }
    /* Under systemd, journald gets the records too. */
    const char *js = getenv("JOURNAL_STREAM");
    if (js != NULL && js[0] != '\0' && strcmp(e, "stderr") != 0) {
        ev.journal = journal_connect(NULL);
    }
    ev.on = true;
    return 0;
}

const char *
pw_events_where(void)
{
    return ev.where[0] != '\0' ? ev.where : "off";
}

/* --- clients and their limits ------------------------------------------ */

static struct client *
client_get(const char *name)
{
    for (size_t i = 0; i < ev.nclients; i++) {
        if (strcmp(ev.clients[i].name, name) == 0) {
            return &ev.clients[i];
        }
    }
    struct client *c;
    if (ev.nclients < PW_EVENTS_CLIENTS_MAX) {
        c = &ev.clients[ev.nclients++];
        snprintf(c->name, sizeof(c->name), "%s", name);
    } else {
        c = &ev.clients[PW_EVENTS_CLIENTS_MAX];
        if (!ev.other_used) {
            snprintf(c->name, sizeof(c->name), OTHER_CLIENT);
            ev.other_used = true;
        }
    }
    if (c->refilled == 0) {
        c->tokens = PW_EVENTS_BURST;
        c->refilled = pw_now();
    }
    return c;
}

static size_t
layer_index(const char *layer)
{
    for (size_t i = 0; i + 1 < NLAYERS; i++) {
        if (strcmp(layers[i], layer) == 0) {
            return i;
        }
    }
    return NLAYERS - 1;
}

/* The summary of C's suppressed refusals. */
static void
summarize(struct client *c)
{
    json_t *rec = record_new("refusals_suppressed");
    if (rec != NULL) {
        json_object_set_new(rec, "client", str_or_null(c->name));
        json_object_set_new(rec, "count",
                            json_integer((json_int_t)c->suppressed));
        json_object_set_new(rec, "since", json_string(c->first));
    }
    c->suppressed = 0;
    ev.suppressing--;
    put_record(rec);
}

/* True if C may log one more refusal now (its bucket refilled). */
static bool
take_token(struct client *c, double now)
{
    c->tokens = fmin(PW_EVENTS_BURST,
                     c->tokens + (now - c->refilled) * PW_EVENTS_RATE);
    c->refilled = now;
    if (c->tokens >= 1) {
        c->tokens -= 1;
        return true;
    }
    return false;
}

bool
pw_events_tick(double now)
{
    if (!ev.on) {
        return false;
    }
    for (size_t i = 0; ev.suppressing > 0 && i <= PW_EVENTS_CLIENTS_MAX; i++) {
        struct client *c = &ev.clients[i];
        if (c->suppressed > 0 && now - c->suppressed_since >= SUMMARY_EVERY) {
            summarize(c);
        }
    }
    flush_stream();
    say_dropped();
    return ev.suppressing > 0 || ev.off < ev.buf.len;
}

void
pw_events_close(void)
{
    if (!ev.on) {
        pw_buf_free(&ev.buf);
        return;
    }
    for (size_t i = 0; ev.suppressing > 0 && i <= PW_EVENTS_CLIENTS_MAX; i++) {
        if (ev.clients[i].suppressed > 0) {
            summarize(&ev.clients[i]);
        }
    }
    double until = pw_now() + CLOSE_WAIT_S;
    flush_stream();
    say_dropped();
    while (ev.fd >= 0 && !ev.broken &&
           (ev.off < ev.buf.len || ev.dropped > 0) && pw_now() < until) {
        /* A shared pipe says it is writable while its half is full. */
        struct pollfd p = {ev.fd, POLLOUT, 0};
        (void)poll(&p, ev.share > 0 ? 0 : 1, 50);
        flush_stream();
        say_dropped();
    }
    if (ev.own_fd) {
        (void)close(ev.fd);
    }
    if (ev.journal >= 0) {
        (void)close(ev.journal);
    }
    ev.fd = ev.journal = -1;
    ev.on = false;
    pw_buf_free(&ev.buf);
}

/* --- the caller --------------------------------------------------------- */

void
pw_events_set_caller(const char *door, const char *client)
{
    snprintf(ev.door, sizeof(ev.door), "%s", door);
    snprintf(ev.client, sizeof(ev.client), "%s", client);
}

const char *
pw_events_door(void)
{
    return ev.door;
}

const char *
pw_events_client(void)
{
    return ev.client;
}

/* --- refusals ----------------------------------------------------------- */

void
pw_events_refusal(const char *door, const char *client, const char *run_id,
                  const char *layer, const char *name, json_t *detail)
{
    struct client *c = client_get(client);
    c->refused[layer_index(layer)]++;
    double now = pw_now();
    if (!ev.on) {
        json_decref(detail);
        return;
    }
    if (!take_token(c, now)) {
        if (c->suppressed++ == 0) {
            c->suppressed_since = now;
            timestamp(c->first, sizeof(c->first));
            ev.suppressing++;
        }
        json_decref(detail);
        return;
    }
    if (c->suppressed > 0) {
        summarize(c);
    }
    json_t *rec = record_new("refusal");
    if (rec == NULL) {
        json_decref(detail);
        return;
    }
    json_object_set_new(rec, "door", str_or_null(door));
    json_object_set_new(rec, "client", str_or_null(client));
    json_object_set_new(rec, "run_id", str_or_null(run_id));
    json_object_set_new(rec, "layer", str_or_null(layer));
    json_object_set_new(rec, "name", str_or_null(name));
    if (detail != NULL) {
        (void)json_object_update_missing(rec, detail);
        json_decref(detail);
    }
    put_record(rec);
}

void
pw_events_refused(const char *layer, const char *name, json_t *detail)
{
    pw_events_refusal(ev.door, ev.client, NULL, layer, name, detail);
}

/* The digest and size of CODE (and the code itself with --log-code)
 * into REC. */
static void
set_code(json_t *rec, const char *code, size_t len)
{
    if (code == NULL) {
        return;
    }
    char hex[2 * PW_SHA256_LEN + 1];
    pw_sha256_hex(code, len, hex);
    json_object_set_new(rec, "code_sha256", json_string(hex));
    json_object_set_new(rec, "code_bytes", json_integer((json_int_t)len));
    if (ev.log_code) {
        size_t n = len > PW_EVENTS_CODE_MAX ? PW_EVENTS_CODE_MAX : len;
        json_object_set_new(rec, "code", text_json(code, n));
        if (n < len) {
            json_object_set_new(rec, "code_truncated", json_true());
        }
    }
}

/* The rule codes of a grade_code report's compile errors ("L:C: PWnnn
 * message") into CODES. */
static void
grade_codes(json_t *sc, json_t *codes)
{
    json_t *e; /* borrowed */
    size_t i;
    json_array_foreach(json_object_get(sc, "compile_errors"), i, e) {
        const char *s = json_string_value(e);
        const char *p = s != NULL ? strstr(s, ": PW") : NULL;
        size_t n = 0;
        while (p != NULL && p[4 + n] >= '0' && p[4 + n] <= '9') {
            n++;
        }
        if (n > 0 && n < 8 && i < 32) {
            json_array_append_new(codes, json_stringn(p + 2, n + 2));
        }
    }
}

void
pw_events_answered(const char *tool, json_t *args, json_t *result)
{
    json_t *sc = json_object_get(result, "structuredContent"); /* borrowed */
    const char *st = json_string_value(json_object_get(sc, "status"));
    const char *verdict = json_string_value(json_object_get(sc, "verdict"));
    bool ce = verdict != NULL && strcmp(verdict, "CE") == 0;
    if ((st == NULL || strcmp(st, "rejected") != 0) && !ce) {
        return;
    }
    json_t *codes = json_array();
    json_t *f; /* borrowed */
    size_t i;
    json_array_foreach(
        json_object_get(json_object_get(sc, "validation"), "findings"), i, f) {
        json_t *code = json_object_get(f, "code"); /* borrowed */
        if (json_is_string(code) && i < 32) {
            json_array_append(codes, code);
        }
    }
    if (ce) {
        grade_codes(sc, codes);
        if (json_array_size(codes) == 0) {
            json_decref(codes); /* a syntax error: no refusal */
            return;
        }
    }
    json_t *detail = json_pack("{s:s,s:o}", "tool", tool, "codes", codes);
    json_t *code = json_object_get(args, "code"); /* borrowed */
    if (detail != NULL && json_is_string(code)) {
        set_code(detail, json_string_value(code), json_string_length(code));
    }
    const char *id = json_string_value(json_object_get(sc, "execution_id"));
    const char *first = json_string_value(json_array_get(codes, 0));
    pw_events_refusal(ev.door, ev.client, id, "validator",
                      first != NULL ? first : "rejected", detail);
}

/* --- runs --------------------------------------------------------------- */

/* The layer and name a run's end tells of, or NULL: none. */
static const char *
run_refusal(const struct pw_sbx_result *res, const char **name)
{
    switch (res->blocked) {
    case PW_SBX_BLOCKED_SYSCALL:
        *name = res->blocked_name;
        return "seccomp";
    case PW_SBX_BLOCKED_AUDIT:
        *name = res->blocked_name;
        return "audit";
    case PW_SBX_BLOCKED_HOOK:
        *name = res->blocked_name;
        return "hook";
    case PW_SBX_BLOCKED_NONE:
        break;
    }
    switch (res->status) {
    case PW_SBX_TIMEOUT:
        *name = "time";
        return "limits";
    case PW_SBX_MEMORY_LIMIT:
        *name = "memory";
        return "limits";
    case PW_SBX_OUTPUT_LIMIT:
        *name = "output";
        return "limits";
    default:
        break;
    }
    /* A refusal of the guard's or the kernel's that the program did not
     * catch: what its error says. */
    const char *type = res->error_type, *msg = res->error_message;
    if (type == NULL || msg == NULL) {
        return NULL;
    }
    bool import = strcmp(type, "ImportError") == 0 ||
                  strcmp(type, "ModuleNotFoundError") == 0;
    if ((import || strcmp(type, "PermissionError") == 0 ||
         strcmp(type, "AttributeError") == 0) &&
        (strstr(msg, "not allowed") != NULL ||
         strstr(msg, "sandbox") != NULL || strstr(msg, "read-only") != NULL ||
         (import && strncmp(msg, "import of '", 11) == 0))) {
        *name = msg;
        return "guard";
    }
    if (strcmp(type, "PermissionError") == 0 &&
        (strstr(msg, "[Errno 1]") != NULL ||
         strstr(msg, "[Errno 13]") != NULL)) {
        *name = msg;
        return "os";
    }
    return NULL;
}

/* The run's fields into REC. */
static void
set_result(json_t *rec, const struct pw_sbx_result *res)
{
    json_object_set_new(rec, "run_id", json_string(res->execution_id));
    json_object_set_new(rec, "verdict",
                        json_string(pw_sbx_status_name(res->status)));
    json_object_set_new(rec, "exit_code",
                        res->exit_code >= 0 ? json_integer(res->exit_code)
                                            : json_null());
    const char *sig = res->signal > 0 ? signal_name(res->signal) : NULL;
    char other[16];
    if (res->signal > 0 && sig == NULL) {
        snprintf(other, sizeof(other), "SIG%d", res->signal);
        sig = other;
    }
    json_object_set_new(rec, "signal",
                        sig != NULL ? json_string(sig) : json_null());
    json_object_set_new(rec, "cpu_s", json_real(res->cpu_s));
    json_object_set_new(rec, "wall_s", json_real(res->wall_s));
    json_object_set_new(rec, "max_rss_kb",
                        json_integer((json_int_t)res->max_rss_kb));
    json_object_set_new(rec, "stdout_bytes",
                        json_integer((json_int_t)res->out.len));
    json_object_set_new(rec, "stderr_bytes",
                        json_integer((json_int_t)res->err.len));
    json_object_set_new(
        rec, "output_truncated",
        json_boolean(res->out.truncated || res->err.truncated));
    json_object_set_new(rec, "error_type", str_or_null(res->error_type));
    const char *name = NULL;
    const char *layer = run_refusal(res, &name);
    json_object_set_new(rec, "blocked",
                        layer != NULL ? json_pack("{s:s,s:o}", "layer", layer,
                                                  "name", str_or_null(name))
                                      : json_null());
}

void
pw_events_run(const struct pw_events_run *r)
{
    const struct pw_sbx_result *res = r->res;
    struct client *c = client_get(r->client);
    c->runs++;
    if (res != NULL) {
        c->cpu_s += res->cpu_s;
        c->wall_s += res->wall_s;
    }
    const char *name = NULL;
    const char *layer = res != NULL ? run_refusal(res, &name) : NULL;
    if (!ev.on) {
        if (layer != NULL) {
            c->refused[layer_index(layer)]++;
        }
        return;
    }
    json_t *rec = record_new("run");
    if (rec == NULL) {
        return;
    }
    json_object_set_new(rec, "door", str_or_null(r->door));
    json_object_set_new(rec, "client", str_or_null(r->client));
    json_object_set_new(rec, "tool", str_or_null(r->tool));
    json_object_set_new(rec, "request", str_or_null(r->request));
    json_object_set_new(rec, "session", str_or_null(r->session));
    json_object_set_new(rec, "profile", str_or_null(r->profile));
    const struct pw_sbx_request *req = &r->spec->req;
    json_object_set_new(
        rec, "limits",
        json_pack("{s:f,s:f,s:I,s:I}", "timeout_s", req->limits.timeout_s,
                  "cpu_s", req->limits.cpu_s, "memory_bytes",
                  (json_int_t)req->limits.memory_bytes, "output_bytes",
                  (json_int_t)req->limits.max_output_bytes));
    if (res != NULL) {
        set_result(rec, res);
    } else {
        json_object_set_new(rec, "run_id", json_null());
        json_object_set_new(rec, "verdict", json_string("internal_error"));
        json_object_set_new(
            rec, "error",
            str_or_null(r->err != NULL ? r->err->message : NULL));
    }
    set_code(rec, req->code, req->code_len);
    json_object_set_new(rec, "stdin_bytes",
                        json_integer((json_int_t)req->stdin_len));
    put_record(rec);
    if (layer != NULL) {
        json_t *detail =
            json_pack("{s:s,s:s}", "tool", r->tool != NULL ? r->tool : "",
                      "verdict", pw_sbx_status_name(res->status));
        if (r->session != NULL && detail != NULL) {
            json_object_set_new(detail, "session", str_or_null(r->session));
        }
        if (res->error_type != NULL && detail != NULL) {
            json_object_set_new(detail, "error_type",
                                str_or_null(res->error_type));
        }
        /* A name from the program's error (guard, os) is its text:
         * capped. */
        char cut[NAME_MAX_BYTES + 1];
        snprintf(cut, sizeof(cut), "%s", name != NULL ? name : "");
        pw_events_refusal(r->door, r->client, res->execution_id, layer, cut,
                          detail);
    }
}

/* --- metrics ------------------------------------------------------------ */

/* NAME as a Prometheus label value (backslash, quote, newline escaped). */
static void
label(struct pw_buf *b, const char *name)
{
    for (const char *p = name; *p != '\0'; p++) {
        if (*p == '\\' || *p == '"') {
            pw_buf_printf(b, "\\%c", *p);
        } else if (*p == '\n') {
            pw_buf_printf(b, "\\n");
        } else {
            pw_buf_append(b, p, 1);
        }
    }
}

void
pw_events_metrics(struct pw_buf *b)
{
    size_t n = ev.nclients;
    const struct client *other =
        ev.other_used ? &ev.clients[PW_EVENTS_CLIENTS_MAX] : NULL;
    pw_buf_printf(b,
                  "# HELP pyward_client_runs_total Runs ended, by client "
                  "(at most %d clients, the others as \"%s\").\n"
                  "# TYPE pyward_client_runs_total counter\n",
                  PW_EVENTS_CLIENTS_MAX, OTHER_CLIENT);
    for (size_t i = 0; i <= n; i++) {
        const struct client *c = i < n ? &ev.clients[i] : other;
        if (c == NULL) {
            continue;
        }
        pw_buf_printf(b, "pyward_client_runs_total{client=\"");
        label(b, c->name);
        pw_buf_printf(b, "\"} %llu\n", c->runs);
    }
    pw_buf_printf(b, "# HELP pyward_client_refusals_total Refusals, by "
                     "client and layer.\n"
                     "# TYPE pyward_client_refusals_total counter\n");
    for (size_t i = 0; i <= n; i++) {
        const struct client *c = i < n ? &ev.clients[i] : other;
        for (size_t l = 0; c != NULL && l < NLAYERS; l++) {
            if (c->refused[l] == 0) {
                continue;
            }
            pw_buf_printf(b, "pyward_client_refusals_total{client=\"");
            label(b, c->name);
            pw_buf_printf(b, "\",layer=\"%s\"} %llu\n", layers[l],
                          c->refused[l]);
        }
    }
    pw_buf_printf(b, "# HELP pyward_client_cpu_seconds_total CPU time of "
                     "the runs, by client.\n"
                     "# TYPE pyward_client_cpu_seconds_total counter\n");
    for (size_t i = 0; i <= n; i++) {
        const struct client *c = i < n ? &ev.clients[i] : other;
        if (c == NULL) {
            continue;
        }
        pw_buf_printf(b, "pyward_client_cpu_seconds_total{client=\"");
        label(b, c->name);
        pw_buf_printf(b, "\"} %.6f\n", c->cpu_s);
    }
    pw_buf_printf(b, "# HELP pyward_client_wall_seconds_total Wall time of "
                     "the runs, by client.\n"
                     "# TYPE pyward_client_wall_seconds_total counter\n");
    for (size_t i = 0; i <= n; i++) {
        const struct client *c = i < n ? &ev.clients[i] : other;
        if (c == NULL) {
            continue;
        }
        pw_buf_printf(b, "pyward_client_wall_seconds_total{client=\"");
        label(b, c->name);
        pw_buf_printf(b, "\"} %.6f\n", c->wall_s);
    }
    pw_buf_printf(b,
                  "# HELP pyward_events_dropped_total Event records dropped "
                  "(the log's reader too slow).\n"
                  "# TYPE pyward_events_dropped_total counter\n"
                  "pyward_events_dropped_total %llu\n",
                  ev.dropped_total + ev.journal_dropped);
}
