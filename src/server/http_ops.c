/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * http_ops.c - what operators read of the HTTP server: /readyz's test,
 * the /metrics text (Prometheus exposition format 0.0.4) and the JSON
 * access-log line (method, path, status, duration, bytes: never a body
 * or a header).
 */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <time.h>

#include "core/util.h"
#include "server/events.h"
#include "server/http.h"
#include "server/sessions.h"

bool
pw_http_ready(const struct pw_tools *tools, bool *warm)
{
    struct pw_zygote *z = tools->zygote;
    if (z == NULL || pw_zygote_fd(z) < 0 || pw_zygote_warming(z)) {
        return false;
    }
    if (!*warm && !pw_zygote_short(z)) {
        *warm = true;
    }
    return *warm;
}

static void
runs_text(struct pw_buf *b, const struct pw_server_stats *st)
{
    pw_buf_printf(b, "# HELP pyward_runs_total Runs answered, by status.\n"
                     "# TYPE pyward_runs_total counter\n");
    for (int i = 0; i < st->nstatus; i++) {
        pw_buf_printf(b, "pyward_runs_total{status=\"%s\"} %llu\n",
                      st->status[i].name, st->status[i].n);
    }
    pw_buf_printf(b, "# HELP pyward_run_seconds Time from a run's request to "
                     "its answer.\n# TYPE pyward_run_seconds histogram\n");
    for (int i = 0; i < PW_STATS_BUCKETS; i++) {
        pw_buf_printf(b, "pyward_run_seconds_bucket{le=\"%g\"} %llu\n",
                      pw_stats_bounds[i], st->latency[i]);
    }
    pw_buf_printf(b,
                  "pyward_run_seconds_bucket{le=\"+Inf\"} %llu\n"
                  "pyward_run_seconds_sum %.6f\n"
                  "pyward_run_seconds_count %llu\n",
                  st->latency_count, st->latency_sum, st->latency_count);
    pw_buf_printf(b,
                  "# HELP pyward_blocked_total Runs stopped, by the layer "
                  "that stopped them.\n# TYPE pyward_blocked_total counter\n"
                  "pyward_blocked_total{layer=\"validator\"} %llu\n"
                  "pyward_blocked_total{layer=\"seccomp\"} %llu\n"
                  "pyward_blocked_total{layer=\"audit\"} %llu\n",
                  st->blocked_validator, st->blocked_syscall,
                  st->blocked_audit);
    pw_buf_printf(b,
                  "# HELP pyward_runs_refused_total Runs refused: the queue "
                  "was full.\n# TYPE pyward_runs_refused_total counter\n"
                  "pyward_runs_refused_total %llu\n",
                  st->busy);
}

static void
gauge(struct pw_buf *b, const char *name, const char *help, long long v)
{
    pw_buf_printf(b, "# HELP %s %s\n# TYPE %s gauge\n%s %lld\n", name, help,
                  name, name, v);
}

/* The sessions' figures, when the server has sessions. */
static void
sessions_text(struct pw_buf *b, const struct pw_sessions *ss)
{
    if (ss == NULL) {
        return;
    }
    const struct pw_sessions_stats *st = pw_sessions_stats(ss);
    gauge(b, "pyward_sessions", "Sessions open.", pw_sessions_count(ss));
    pw_buf_printf(b,
                  "# HELP pyward_sessions_created_total Sessions created.\n"
                  "# TYPE pyward_sessions_created_total counter\n"
                  "pyward_sessions_created_total %llu\n"
                  "# HELP pyward_sessions_ended_total Sessions ended, by "
                  "reason.\n# TYPE pyward_sessions_ended_total counter\n",
                  st->created);
    for (int i = 0; i < PW_SESSION_END_N; i++) {
        pw_buf_printf(b, "pyward_sessions_ended_total{reason=\"%s\"} %llu\n",
                      pw_session_end_name((enum pw_session_end)i),
                      st->ended[i]);
    }
}

static void
http_text(struct pw_buf *b, const struct pw_http_counts *c)
{
    static const char *const classes[] = {"1xx", "2xx", "3xx",
                                          "4xx", "5xx", "other"};
    pw_buf_printf(b, "# HELP pyward_http_requests_total HTTP requests "
                     "answered, by status class.\n"
                     "# TYPE pyward_http_requests_total counter\n");
    for (size_t i = 0; i < PW_N_ELEMENTS(classes); i++) {
        pw_buf_printf(b, "pyward_http_requests_total{code=\"%s\"} %llu\n",
                      classes[i], c->requests[i]);
    }
    pw_buf_printf(b,
                  "# HELP pyward_http_refused_total Requests refused, by "
                  "reason.\n# TYPE pyward_http_refused_total counter\n"
                  "pyward_http_refused_total{reason=\"unauthorized\"} %llu\n"
                  "pyward_http_refused_total{reason=\"origin\"} %llu\n"
                  "pyward_http_refused_total{reason=\"slow\"} %llu\n"
                  "pyward_http_refused_total{reason=\"host\"} %llu\n"
                  "pyward_http_refused_total{reason=\"busy\"} %llu\n"
                  "pyward_http_refused_total{reason=\"address\"} %llu\n"
                  "# HELP pyward_http_evicted_total Connections without a "
                  "request closed to make room for new ones.\n"
                  "# TYPE pyward_http_evicted_total counter\n"
                  "pyward_http_evicted_total %llu\n"
                  "# HELP pyward_http_not_ready_total /readyz answered 503 "
                  "(not counted in pyward_http_requests_total).\n"
                  "# TYPE pyward_http_not_ready_total counter\n"
                  "pyward_http_not_ready_total{reason=\"starting\"} %llu\n"
                  "pyward_http_not_ready_total{reason=\"draining\"} %llu\n",
                  c->unauthorized, c->forbidden, c->deadline_cut, c->host,
                  c->busy, c->address, c->evicted, c->not_ready[0],
                  c->not_ready[1]);
}

char *
pw_http_metrics_text(const struct pw_server *srv, const struct pw_tools *tools,
                     const struct pw_http_counts *c)
{
    struct pw_buf b;
    pw_buf_init(&b);
    runs_text(&b, pw_server_stats(srv));
    gauge(&b, "pyward_queue_depth", "Runs waiting for a slot.",
          (long long)pw_server_queued(srv));
    gauge(&b, "pyward_runs_in_flight", "Runs in the sandbox now.",
          pw_server_running(srv));
    struct pw_zygote *z[2];
    size_t nz = pw_tools_zygotes(tools, z);
    long long spares = 0;
    for (size_t i = 0; i < nz; i++) {
        spares += pw_zygote_spares(z[i]);
    }
    gauge(&b, "pyward_spares", "Prepared sandbox processes in the pools.",
          spares);
    sessions_text(&b, tools->sessions);
    gauge(&b, "pyward_http_connections", "HTTP connections open.",
          c->connections);
    gauge(&b, "pyward_http_waiting", "HTTP requests waiting for a run.",
          c->streams);
    http_text(&b, c);
    pw_events_metrics(&b);
    return pw_buf_take(&b, NULL);
}

void
pw_http_access_log(const char *remote, const char *method, const char *path,
                   const char *rpc, unsigned status, double seconds,
                   size_t bytes)
{
    char ts[32];
    struct timespec now;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
    json_auto_t *line = json_pack(
        "{s:s,s:s,s:s,s:s,s:i,s:f,s:I}", "time", ts, "remote", remote,
        "method", method, "path", path, "status", (int)status, "duration_ms",
        (double)(long long)(seconds * 1e6) / 1e3, "bytes", (json_int_t)bytes);
    if (line == NULL) {
        return;
    }
    if (rpc != NULL && rpc[0] != '\0') {
        json_object_set_new(line, "rpc", json_string(rpc));
    }
    char *text = json_dumps(line, JSON_COMPACT | JSON_ENSURE_ASCII |
                                      JSON_REAL_PRECISION(6));
    if (text != NULL) {
        fprintf(stderr, "%s\n", text);
        free(text);
    }
}
