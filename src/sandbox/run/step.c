/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * step.c - drive a run from the caller's poll loop: feed stdin, read
 * the capped output and the result channel, take the refused system call
 * from the seccomp listener, enforce the wall clock, reap.  The run is
 * over when its process has exited (its pidfd): the exit status and the
 * resource usage come from wait4, never from the run's own report.
 *
 * Defines pw_sbx_step and the other calls on a running run (pw_sbx_pollfds,
 * pw_sbx_deadline, ...).
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/os/filter.h"
#include "sandbox/interp/hookcheck.h"
#include "sandbox/run/record.h"
#include "sandbox/session/record.h"
#include "sandbox/run/output.h"
#include "sandbox/run/step.h"
#include "sandbox/os/workspace.h"
#include "sandbox/run/wsfiles.h"

#define READ_CHUNK   65536
#define OUTPUT_SLACK 65536
#define RESULT_MAX   (8 << 20) /* the program's report, at most */

static void
kill_group(struct pw_sbx_run *r, enum pw_sbx_stop why)
{
    if (r->stop == PW_STOP_NONE) {
        r->stop = why;
    }
    if (r->not_child) {
        pw_sbx_signal_copy(r->pidfd, SIGKILL);
        return;
    }
    (void)kill(-r->pid, SIGKILL);
    (void)kill(r->pid, SIGKILL);
}

int
pw_sbx_pollfds(const struct pw_sbx_run *r, struct pollfd *fds, int max)
{
    int n = 0;
    /* A streamed stdin: read the source only when the last chunk is in
     * the pipe, wait for room in the pipe only when one is not. */
    bool streaming = r->io.in_fd >= 0 && r->fd_in >= 0;
    bool pending = r->pend_off < r->pend_len;
    int in_src = streaming && !pending ? r->io.in_fd : -1;
    int in_dst = streaming && !pending ? -1 : r->fd_in;
    const int want[][2] = {
        {r->out.fd, POLLIN}, {r->err.fd, POLLIN},
        {r->res.fd, POLLIN}, {in_dst, POLLOUT},
        {r->pidfd, POLLIN},  {r->listener, POLLIN},
        {in_src, POLLIN},    {pw_sbx_wsfiles_pollfd(r), POLLIN}};
    for (size_t i = 0; i < PW_N_ELEMENTS(want) && n < max; i++) {
        if (!r->done && want[i][0] >= 0) {
            fds[n].fd = want[i][0];
            fds[n].events = (short)want[i][1];
            fds[n].revents = 0;
            n++;
        }
    }
    return n;
}

static void
close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* The fds the checklist sends first on the result channel, in order:
 * the workspace (tmpfs runs only), the seccomp listener.  Any other fd
 * (only the program could send one) is closed. */
static void
take_channel_fds(struct pw_sbx_run *r, const int *fds, size_t n)
{
    int *slots[2];
    size_t nslots = 0;
    if (pw_sbx_workspace_tmpfs(r->z, r->caps)) {
        slots[nslots++] = &r->ws_fd;
    }
    slots[nslots++] = &r->listener;
    for (size_t i = 0; i < n; i++) {
        size_t k = r->fds_got++;
        if (k < nslots && *slots[k] < 0) {
            *slots[k] = fds[i];
        } else {
            close(fds[i]);
        }
    }
}

static ssize_t
read_stream(struct pw_sbx_run *r, struct pw_sbx_stream *s, char *buf,
            size_t len)
{
    if (s != &r->res) {
        return read(s->fd, buf, len);
    }
    int fds[PW_FDS_MAX];
    size_t n = 0;
    ssize_t got = pw_recv_fds(s->fd, buf, len, fds, PW_FDS_MAX, &n, 0);
    take_channel_fds(r, fds, n);
    return got;
}

/* Read what is there; returns 1 at EOF. */
static int
drain(struct pw_sbx_run *r, struct pw_sbx_stream *s, size_t cap, bool keep)
{
    char chunk[READ_CHUNK];
    for (int rounds = 0; s->fd >= 0 && rounds < 16; rounds++) {
        ssize_t n = read_stream(r, s, chunk, sizeof(chunk));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                close_fd(&s->fd);
                return 1;
            }
            return 0;
        }
        size_t room = s->buf.len < cap ? cap - s->buf.len : 0;
        size_t take = (size_t)n < room ? (size_t)n : room;
        if (keep && take > 0) {
            pw_buf_append(&s->buf, chunk, take);
            if (r->io.output != NULL && s != &r->res) {
                r->io.output(r->io.ctx, s == &r->out ? 1 : 2, chunk, take);
            }
        }
        s->total += (size_t)n;
        if (s->total > cap) {
            s->truncated = true;
            if (s->total > cap + OUTPUT_SLACK) {
                kill_group(r, PW_STOP_OUTPUT);
            }
        }
    }
    return 0;
}

double
pw_sbx_cpu_so_far(int stat_fd)
{
    char buf[96];
    ssize_t n = stat_fd >= 0 ? pread(stat_fd, buf, sizeof(buf) - 1, 0) : -1;
    if (n <= 0) {
        return -1;
    }
    buf[n] = '\0';
    return (double)strtoull(buf, NULL, 10) / 1e9;
}

void
pw_sbx_signal_copy(int pidfd, int sig)
{
    if (pidfd >= 0) {
        (void)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0U);
    }
}

long
pw_sbx_peak_rss(int status_fd)
{
    char buf[4096];
    ssize_t n =
        status_fd >= 0 ? pread(status_fd, buf, sizeof(buf) - 1, 0) : -1;
    if (n <= 0) {
        return -1;
    }
    buf[n] = '\0';
    const char *p = strstr(buf, "\nVmHWM:");
    return p != NULL ? strtol(p + 8, NULL, 10) : -1;
}

/* The run's audit hook, read from its process (stopped in exit_group, or
 * a session's, its call reported): R->hook. */
static void
check_hook(struct pw_sbx_run *r)
{
    if (r->z->hookcheck && r->pid > 0) {
        int intact = pw_sbx_hook_intact(r->pid, r->z->zpid, r->caps);
        r->hook = intact == 1   ? PW_HOOK_INTACT
                  : intact == 0 ? PW_HOOK_ALTERED
                                : PW_HOOK_UNREADABLE;
    }
}

/* The child called exit_group: the kernel told the status.  Read its
 * usage and its audit hook while it waits in the call, then let it go. */
static void
take_exit(struct pw_sbx_run *r, const struct pw_sbx_notice *n)
{
    r->exit_seen = true;
    r->exit_status = (int)(n->arg0 & 0xff);
    r->cpu_end = pw_sbx_cpu_so_far(r->stat_fd);
    r->maxrss_kb = pw_sbx_peak_rss(r->status_fd);
    check_hook(r);
    if (pw_sbx_notify_let_exit(r->listener, n) < 0) {
        kill_group(r, PW_STOP_CANCEL); /* gone already, or cannot go */
    }
}

void
pw_sbx_run_notice(struct pw_sbx_run *r, const struct pw_sbx_notice *n)
{
    if (n->nr == SYS_exit_group) {
        take_exit(r, n);
        return;
    }
    if (r->refused_nr < 0) {
        r->refused_nr = n->nr;
    }
    kill_group(r, PW_STOP_SYSCALL);
}

/* The listener has a notice: the child is stopped in a call outside the
 * allow-list.  A refused call never runs: the child is killed.  POLLHUP
 * alone: no process uses the filter any more.  A session's copies share
 * the listener: another copy's notice goes to that copy. */
static void
take_notice(struct pw_sbx_run *r, short revents)
{
    struct pw_sbx_notice n;
    if ((revents & POLLIN) == 0) {
        close_fd(&r->listener);
        return;
    }
    if (pw_sbx_notify_take(r->listener, &n) < 0) {
        return;
    }
    if (r->sess != NULL && r->sess->route != NULL &&
        r->sess->route(r->sess, r->listener, &n)) {
        return;
    }
    pw_sbx_run_notice(r, &n);
}

/* Write the pending chunk of a streamed stdin into the pipe. */
static void
feed_pending(struct pw_sbx_run *r)
{
    while (r->fd_in >= 0 && r->pend_off < r->pend_len) {
        ssize_t n =
            write(r->fd_in, r->pend + r->pend_off, r->pend_len - r->pend_off);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                close_fd(&r->fd_in); /* the program closed its stdin */
            }
            return;
        }
        r->pend_off += (size_t)n;
    }
}

/* The source of a streamed stdin is readable: take one chunk (what a
 * terminal gives is a line).  End of file, or an error, closes the
 * program's stdin. */
static void
read_source(struct pw_sbx_run *r)
{
    ssize_t n = read(r->io.in_fd, r->pend, sizeof(r->pend));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return;
    }
    if (n <= 0) {
        r->io.in_fd = -1; /* borrowed: the caller closes it */
        close_fd(&r->fd_in);
        return;
    }
    r->pend_off = 0;
    r->pend_len = (size_t)n;
    feed_pending(r);
}

static void
feed_stdin(struct pw_sbx_run *r)
{
    if (r->io.in_fd >= 0) {
        feed_pending(r);
        return;
    }
    while (r->fd_in >= 0 && r->stdin_off < r->stdin_len) {
        ssize_t n = write(r->fd_in, r->stdin_data + r->stdin_off,
                          r->stdin_len - r->stdin_off);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                close_fd(&r->fd_in);
            }
            return;
        }
        r->stdin_off += (size_t)n;
    }
    close_fd(&r->fd_in);
}

static void
read_all(struct pw_sbx_run *r)
{
    size_t cap = (size_t)r->limits.max_output_bytes;
    drain(r, &r->out, cap, r->capture);
    drain(r, &r->err, cap, r->capture);
    drain(r, &r->res, RESULT_MAX, true);
}

/* A session's copy is not the server's child: its end is its pidfd's,
 * its status the exit_group the listener reported, else SIGKILL (the
 * server's, or a signal the server cannot know). */
static void
wait_copy(struct pw_sbx_run *r)
{
    struct pollfd p = {.fd = r->pidfd, .events = POLLIN};
    (void)PW_RETRY(poll(&p, r->pidfd >= 0 ? 1 : 0, 2000));
    r->wstatus = r->exit_seen ? (r->exit_status & 0xff) << 8 : SIGKILL;
}

static void
finish(struct pw_sbx_run *r)
{
    pw_sbx_wsfiles_stop(r);
    if (r->not_child) {
        wait_copy(r);
    } else {
        (void)PW_RETRY(wait4(r->pid, &r->wstatus, 0, &r->ru));
    }
    /* The child is gone: every write end is closed, drain to EOF. */
    for (int i = 0;
         i < 4096 && (r->out.fd >= 0 || r->err.fd >= 0 || r->res.fd >= 0);
         i++) {
        read_all(r);
    }
    r->end = pw_now();
    r->done = true;
    close_fd(&r->fd_in);
    close_fd(&r->out.fd);
    close_fd(&r->err.fd);
    close_fd(&r->res.fd);
    close_fd(&r->pidfd);
    close_fd(&r->listener);
}

/*
 * The child reported its exit status through the listener and every pipe
 * is drained: the run is over.  Answer now instead of waiting for the
 * kernel to tear its address space down (a millisecond and more for a
 * warm interpreter); its process is reaped later (pw_sbx_reap).
 */
static bool
finish_exited(struct pw_sbx_run *r)
{
    if (!r->exit_seen || r->out.fd >= 0 || r->err.fd >= 0 || r->res.fd >= 0) {
        return false;
    }
    r->wstatus = (r->exit_status & 0xff) << 8; /* as wait4 would say */
    r->reap_deferred = true;
    r->end = pw_now();
    r->done = true;
    close_fd(&r->fd_in);
    close_fd(&r->pidfd);
    close_fd(&r->listener);
    return true;
}

/* The exit status in a session call's report line LINE (LEN bytes after
 * the "R"); 1 if it has none.  *RERUN: a batch's test asks to run in a
 * fresh process (batch.py). */
static int
reported_status(const char *line, size_t len, bool *rerun)
{
    json_t *v = json_loadb(line, len, 0, NULL);
    json_t *st = json_object_get(v, "exit_status"); /* borrowed */
    int status =
        json_is_integer(st) ? (int)(json_integer_value(st) & 0xff) : 1;
    *rerun = json_is_true(json_object_get(v, "rerun"));
    json_decref(v);
    return status;
}

/* A session's call is over at its report: the "R" line the guard writes
 * once stdout and stderr are flushed (what the pipes still hold is taken
 * now, without waiting).  The process stays for the next call. */
static bool
call_reported(struct pw_sbx_run *r)
{
    struct pw_buf *b = &r->res.buf;
    while (r->scan < b->len) {
        const char *p = b->data + r->scan;
        const char *nl = memchr(p, '\n', b->len - r->scan);
        if (nl == NULL) {
            return false; /* a line not complete yet */
        }
        r->scan = (size_t)(nl - b->data) + 1;
        if (p[0] != 'R') {
            continue;
        }
        size_t cap = (size_t)r->limits.max_output_bytes;
        for (int i = 0; i < 64 && (r->out.fd >= 0 || r->err.fd >= 0); i++) {
            size_t before = r->out.total + r->err.total;
            drain(r, &r->out, cap, r->capture);
            drain(r, &r->err, cap, r->capture);
            if (r->out.total + r->err.total == before) {
                break;
            }
        }
        r->wstatus = reported_status(p + 1, (size_t)(nl - p) - 1, &r->rerun)
                     << 8;
        r->cpu_end = pw_sbx_cpu_so_far(r->stat_fd);
        r->maxrss_kb = pw_sbx_peak_rss(r->status_fd);
        check_hook(r);
        r->reported = true;
        r->end = pw_now();
        r->done = true;
        return true;
    }
    return false;
}

/* The request R kept while its support files were copied in
 * (wsfiles.c), to the spare now that they are there. */
static void
send_pending(struct pw_sbx_run *r)
{
    r->cpu_base = pw_sbx_cpu_so_far(r->stat_fd);
    /* A spare that ended meanwhile cannot take it (EPIPE): its result
     * channel and exit status say what failed. */
    (void)pw_write_all(r->ctl, r->pending.data, r->pending.len);
    close_fd(&r->ctl);
    pw_buf_free(&r->pending);
}

/* A run with a CPU time limit is looked at no more often than this. */
#define CPU_POLL_MIN 0.002

/* The CPU seconds the program's "G" record carries (the program's start,
 * written by the checklist before any of its code: the first "G" line of
 * the result channel), into R->cpu_g once it has come. */
static void
read_cpu_g(struct pw_sbx_run *r)
{
    const struct pw_buf *b = &r->res.buf;
    for (size_t i = 0; r->cpu_g < 0 && i < b->len;) {
        const char *nl = memchr(b->data + i, '\n', b->len - i);
        if (nl == NULL) {
            return;
        }
        if (b->data[i] == 'G') {
            char num[32];
            size_t len = (size_t)(nl - (b->data + i));
            if (len < 3 || len - 2 >= sizeof(num)) {
                return; /* no CPU in it: the request's time stays */
            }
            memcpy(num, b->data + i + 2, len - 2);
            num[len - 2] = '\0';
            r->cpu_g = (double)strtoll(num, NULL, 10) / 1e9;
            return;
        }
        i = (size_t)(nl - b->data) + 1;
    }
}

/* The CPU seconds the program has used so far, or -1 if unknown. */
static double
cpu_used(const struct pw_sbx_run *r)
{
    double base = r->cpu_g >= 0 ? r->cpu_g : r->cpu_base;
    double now = base >= 0 ? pw_sbx_cpu_so_far(r->stat_fd) : -1;
    return now >= 0 ? now - base : -1;
}

/* When R's wall clock is up: its time limit, or once a session's call
 * was interrupted, the end of its grace period. */
static double
wall_deadline(const struct pw_sbx_run *r)
{
    if (r->interrupted) {
        return r->interrupted_at + r->grace_s;
    }
    return r->start + r->limits.timeout_s;
}

int
pw_sbx_step(struct pw_sbx_run *r, const struct pollfd *fds, int n)
{
    if (r->done) {
        return 1;
    }
    bool exited = false;
    for (int i = 0; i < n; i++) {
        if (fds[i].revents == 0) {
            continue;
        }
        if (fds[i].fd == r->fd_in) {
            feed_stdin(r);
        } else if (fds[i].fd == r->io.in_fd) {
            read_source(r);
        } else if (fds[i].fd == r->pidfd) {
            exited = true;
        } else if (fds[i].fd == r->listener) {
            take_notice(r, fds[i].revents);
        }
    }
    read_all(r);
    if (r->files != NULL) {
        int rc = pw_sbx_wsfiles_step(r);
        if (rc > 0) {
            send_pending(r);
        } else if (rc < 0) {
            kill_group(r, PW_STOP_FILES);
        }
    }
    if (r->sess != NULL && r->stop == PW_STOP_NONE && !r->exit_seen &&
        call_reported(r)) {
        return 1;
    }
    if (r->stop == PW_STOP_NONE && finish_exited(r)) {
        return 1;
    }
    if (!exited && pw_now() >= wall_deadline(r)) {
        if (r->sess != NULL && r->grace_s > 0 && !r->interrupted) {
            /* A session's call: interrupted first, the session kept if
             * it reports within the grace period. */
            pw_sbx_interrupt(r);
            r->interrupted = true;
            r->interrupted_at = pw_now();
        } else {
            kill_group(r, PW_STOP_TIMEOUT);
            exited = true;
        }
    }
    if (!exited && r->limits.cpu_limit_s > 0 && r->stop == PW_STOP_NONE) {
        read_cpu_g(r);
        if (cpu_used(r) >= r->limits.cpu_limit_s) {
            kill_group(r, PW_STOP_CPU);
        }
    }
    if (!exited && r->stop != PW_STOP_NONE) {
        exited = true; /* killed for output or a system call: reap now */
    }
    if (exited) {
        finish(r);
        return 1;
    }
    return 0;
}

double
pw_sbx_deadline(const struct pw_sbx_run *r)
{
    double wall = wall_deadline(r);
    if (r->limits.cpu_limit_s <= 0 || r->done) {
        return wall;
    }
    /* One thread's CPU time grows no faster than the clock: the limit
     * cannot be reached before the time it has left (a program's other
     * threads are caught at the next look, RLIMIT_CPU behind it). */
    double used = cpu_used(r);
    double left = r->limits.cpu_limit_s - (used >= 0 ? used : 0);
    return fmin(wall, pw_now() + fmax(left, CPU_POLL_MIN));
}

void
pw_sbx_cancel(struct pw_sbx_run *r)
{
    if (!r->done) {
        kill_group(r, PW_STOP_CANCEL);
        finish(r);
    }
}

void
pw_sbx_interrupt(struct pw_sbx_run *r)
{
    if (!r->done && r->not_child) {
        pw_sbx_signal_copy(r->pidfd, SIGINT);
    } else if (!r->done) {
        (void)kill(r->pid, SIGINT);
    }
}

double
pw_sbx_elapsed(const struct pw_sbx_run *r)
{
    return (r->done ? r->end : pw_now()) - r->start;
}

json_t *
pw_sbx_result_json(const struct pw_sbx_run *r)
{
    return pw_sbx_result_build(r);
}
