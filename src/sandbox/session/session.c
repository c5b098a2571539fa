/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * session.c - a spare that serves many calls.
 *
 * A session starts like a fresh run: a prepared spare from the pool gets
 * its first request, marked as a session's, with the session's memory
 * limit (RLIMIT_AS) and CPU budget (RLIMIT_CPU) for its whole life.  The
 * spare installs the interpreter layers and the audit hook once, runs
 * each call in the same globals, writes the call's report ("R", after
 * stdout and stderr were flushed) and waits on its request pipe for the
 * next call (spare.c).  Every layer of a fresh run stays: the process is
 * the same spare, pid 1 of its own PID namespace, under the same seccomp
 * filter whose listener the server holds.
 *
 * The server's side: between calls the session keeps the process, its
 * pipes, its listener and its scratch directory; a call borrows them (a
 * run record with RUN->sess set, driven by step.c, whose end is the
 * report instead of the exit) and gives them back when it is freed.  A
 * call that ends any other way than "ok" or "error" ends the session:
 * its process is killed (the whole PID namespace with it) and reaped,
 * its scratch directory removed, off the caller's way (pw_sbx_reap).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/session/family.h"
#include "sandbox/os/filter.h"
#include "sandbox/run/record.h"
#include "sandbox/session/record.h"
#include "sandbox/run/scratch.h"
#include "sandbox/session/session.h"
#include "sandbox/run/spare.h"
#include "sandbox/run/step.h"
#include "sandbox/run/wsfiles.h"

/* Move the fds between the session and a run (TO_RUN: into R). */
static void
move_fds(struct pw_sbx_session *s, struct pw_sbx_run *r, bool to_run)
{
    int *pairs[][2] = {
        {&s->fd.pidfd, &r->pidfd},         {&s->fd.ctl, &r->ctl},
        {&s->fd.out, &r->out.fd},          {&s->fd.err, &r->err.fd},
        {&s->fd.res, &r->res.fd},          {&s->fd.ws_fd, &r->ws_fd},
        {&s->fd.listener, &r->listener},   {&s->fd.stat_fd, &r->stat_fd},
        {&s->fd.status_fd, &r->status_fd},
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(pairs); i++) {
        int *from = pairs[i][to_run ? 0 : 1];
        int *to = pairs[i][to_run ? 1 : 0];
        *to = *from;
        *from = -1;
    }
}

void
pw_sbx_session_close_fds(struct pw_sbx_session_fds *f)
{
    int *fds[] = {&f->pidfd, &f->ctl,      &f->out,     &f->err,      &f->res,
                  &f->ws_fd, &f->listener, &f->stat_fd, &f->status_fd};
    for (size_t i = 0; i < PW_N_ELEMENTS(fds); i++) {
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
    }
}

static void
set_ended(struct pw_sbx_session *s, const char *why)
{
    if (s->ended[0] == '\0') {
        snprintf(s->ended, sizeof(s->ended), "%s", why);
    }
}

/* Kill the process (and its PID namespace) and leave it and the scratch
 * directory to pw_sbx_reap.  PID 0: already reaped.  A family's member
 * leaves it instead: the last one ends the namespace. */
static void
end_process(struct pw_sbx_session *s, pid_t pid)
{
    if (s->fam != NULL) {
        if (pid > 0) {
            pw_sbx_signal_copy(s->fd.pidfd, SIGKILL);
        }
        struct pw_sbx_family *f = s->fam;
        s->fam = NULL;
        s->pid = 0;
        pw_sbx_session_close_fds(&s->fd);
        pw_sbx_family_remove(f, s);
        return;
    }
    if (pid > 0) {
        (void)kill(-pid, SIGKILL);
        (void)kill(pid, SIGKILL);
    }
    if (pid > 0 || s->scratch != NULL) {
        pw_sbx_reap_later(s->z, pid, s->scratch);
    }
    s->scratch = NULL;
    s->pid = 0;
    pw_sbx_session_close_fds(&s->fd);
}

static void release_call(struct pw_sbx_run *r);

static struct pw_sbx_session *
session_new(struct pw_zygote *z, const struct pw_sbx_request *req,
            double cpu_s, bool batch, struct pw_sbx_run **first,
            struct pw_error *err)
{
    struct pw_sbx_request r0 = *req;
    r0.session = true;
    r0.batch = batch;
    r0.limits.cpu_s = cpu_s;
    if (!batch) {
        r0.stdin_data = NULL;
        r0.stdin_len = 0;
    }
    r0.io = NULL;
    struct pw_sbx_run *r = pw_sbx_start(z, &r0, err);
    if (r == NULL) {
        return NULL;
    }
    struct pw_sbx_session *s = pw_xcalloc(1, sizeof(*s));
    s->z = z;
    s->pid = r->pid;
    s->fd = (struct pw_sbx_session_fds){-1, -1, -1, -1, -1, -1, -1, -1, -1};
    s->scratch = r->scratch; /* the session's from now on */
    s->caps = r->caps;
    s->limits = r->limits;
    s->seen = json_object();
    s->run = r;
    r->sess = s;
    r->release = release_call;
    r->seen = s->seen;
    *first = r;
    return s;
}

struct pw_sbx_session *
pw_sbx_session_new(struct pw_zygote *z, const struct pw_sbx_request *req,
                   double cpu_s, struct pw_sbx_run **first,
                   struct pw_error *err)
{
    return session_new(z, req, cpu_s, false, first, err);
}

struct pw_sbx_session *
pw_sbx_batch_new(struct pw_zygote *z, const struct pw_sbx_request *req,
                 double cpu_s, struct pw_sbx_run **first, struct pw_error *err)
{
    struct pw_sbx_session *s = session_new(z, req, cpu_s, true, first, err);
    if (s != NULL) {
        s->batch = true;
    }
    return s;
}

/* What a program left in the pipes between calls (a thread of its own
 * still printing) belongs to no call: dropped. */
void
pw_sbx_session_drop_leftovers(const struct pw_sbx_session *s)
{
    char buf[4096];
    int fds[] = {s->fd.out, s->fd.err, s->fd.res};
    for (size_t i = 0; i < PW_N_ELEMENTS(fds); i++) {
        for (int k = 0; k < 256 && fds[i] >= 0; k++) {
            ssize_t n = read(fds[i], buf, sizeof(buf));
            if (n <= 0) {
                break;
            }
        }
    }
}

static struct pw_sbx_run *
session_call(struct pw_sbx_session *s, const struct pw_sbx_request *req,
             bool batch, struct pw_error *err)
{
    if (s->run != NULL || s->fork != NULL) {
        pw_fail(err, PW_ERR_USAGE, "the session is busy: %s",
                s->run != NULL ? "a call is running" : "a copy is being made");
        return NULL;
    }
    const char *why = pw_sbx_session_ended(s);
    if (why != NULL) {
        pw_fail(err, PW_ERR_USAGE, "session ended: %s", why);
        return NULL;
    }
    if (pw_sbx_wsfiles_count(req) > 0) {
        pw_fail(err, PW_ERR_USAGE,
                "support files given by fd are not for sessions");
        return NULL;
    }
    pw_sbx_session_drop_leftovers(s);
    static const struct pw_importset none;
    struct pw_sbx_request call = *req;
    call.imports = &none;
    call.caps = s->caps;
    call.session = false;
    call.compiled = NULL; /* a call compiles in the session (its layers on) */
    call.batch = batch;
    if (batch) { /* the batch's program, compiled when it started */
        call.code = "";
        call.code_len = 0;
    }
    call.stdin_in_request = true;
    call.io = NULL;
    struct pw_sbx_run *r = pw_sbx_run_new(s->z, &call);
    r->limits.memory_bytes = s->limits.memory_bytes;
    r->limits.cpu_s = 0;
    r->sess = s;
    r->release = release_call;
    r->pid = s->pid;
    /* borrowed */
    r->scratch =
        s->fam != NULL ? (char *)pw_sbx_family_scratch(s->fam) : s->scratch;
    r->on_spare = true;
    r->grace_s = PW_SBX_INTERRUPT_GRACE_S;
    r->not_child = s->not_child;
    r->seen = s->seen;
    move_fds(s, r, true);
    r->fds_got = 2; /* the checklist's fds came with the first call */
    pw_buf_append(&r->res.buf, "G\n", 2);
    r->scan = 2;
    s->run = r;
    r->start = pw_now();
    r->cpu_base = pw_sbx_cpu_so_far(r->stat_fd);
    /* A process gone meanwhile cannot take it (EPIPE): the call then
     * ends as the process's end says. */
    (void)pw_sbx_request_write(r->ctl, &call, &r->limits);
    return r;
}

struct pw_sbx_run *
pw_sbx_session_call(struct pw_sbx_session *s, const struct pw_sbx_request *req,
                    struct pw_error *err)
{
    if (s->batch) {
        pw_fail(err, PW_ERR_USAGE, "a batch takes only its tests");
        return NULL;
    }
    return session_call(s, req, false, err);
}

struct pw_sbx_run *
pw_sbx_batch_test(struct pw_sbx_session *s, const struct pw_sbx_request *req,
                  struct pw_error *err)
{
    if (!s->batch) {
        pw_fail(err, PW_ERR_USAGE, "not a batch");
        return NULL;
    }
    return session_call(s, req, true, err);
}

/* Why a call that did not end with a report, or ended with STATUS,
 * ends the session. */
static void
ended_by(struct pw_sbx_session *s, const struct pw_sbx_run *r)
{
    enum pw_sbx_status st = pw_sbx_result_status(r);
    const char *status = pw_sbx_status_name(st);
    char why[160];
    if (st == PW_SBX_TIMEOUT && r->interrupted) {
        snprintf(why, sizeof(why),
                 "a call exceeded its time limit (%g s) and did not stop "
                 "within %g s of its KeyboardInterrupt",
                 r->limits.timeout_s, r->grace_s);
    } else if (st == PW_SBX_TIMEOUT) {
        snprintf(why, sizeof(why), "a call exceeded its time limit (%g s)",
                 r->limits.timeout_s);
    } else if (st == PW_SBX_MEMORY_LIMIT) {
        snprintf(why, sizeof(why),
                 "a call exceeded the session's memory limit (%lld bytes)",
                 r->limits.memory_bytes);
    } else if (st == PW_SBX_OUTPUT_LIMIT) {
        snprintf(why, sizeof(why), "a call exceeded the output limit");
    } else if (r->stop == PW_STOP_SYSCALL) {
        snprintf(why, sizeof(why), "a call made a refused system call");
    } else if (st == PW_SBX_INTERNAL_ERROR) {
        snprintf(why, sizeof(why), "the session could not be set up");
    } else if (r->exit_seen || !r->reported) {
        snprintf(why, sizeof(why), "its process ended (%s)", status);
    } else {
        snprintf(why, sizeof(why), "a call ended as %s", status);
    }
    set_ended(s, why);
}

/* A session's call R is being freed: the session takes its process and
 * fds back, or ends (R's release). */
static void
release_call(struct pw_sbx_run *r)
{
    struct pw_sbx_session *s = r->sess;
    r->sess = NULL;
    r->scratch = NULL; /* the session's */
    s->run = NULL;
    enum pw_sbx_status status =
        r->done ? pw_sbx_result_status(r) : PW_SBX_KILLED;
    bool kept_status = status == PW_SBX_OK || status == PW_SBX_ERROR ||
                       (status == PW_SBX_TIMEOUT && r->interrupted);
    bool keeps = r->reported && !r->rerun && !s->orphan &&
                 s->ended[0] == '\0' && kept_status;
    if (keeps) {
        move_fds(s, r, false);
        r->pid = 0;
        return;
    }
    if (s->not_child && !(r->done && !r->reported)) {
        pw_sbx_signal_copy(r->pidfd,
                           SIGKILL); /* alive: its run did not wait for it */
    }
    if (r->done) {
        ended_by(s, r);
    } else {
        set_ended(s, "closed");
    }
    /* Reaped by the run's finish (killed, or ended on its own and
     * waited for), or still there: the session's end kills it. */
    bool reaped = r->done && !r->reported && !r->reap_deferred;
    end_process(s, reaped ? 0 : r->pid);
    r->pid = 0;
    r->done = true;
    r->reap_deferred = false;
    if (s->orphan) {
        json_decref(s->seen);
        free(s);
    }
}

const char *
pw_sbx_session_ended(struct pw_sbx_session *s)
{
    if (s->ended[0] == '\0' && s->run == NULL) {
        struct pollfd p = {.fd = s->fd.pidfd, .events = POLLIN};
        if (s->fd.pidfd < 0 || poll(&p, 1, 0) != 0) {
            int st = 0;
            pid_t got =
                s->not_child ? -1 : PW_RETRY(waitpid(s->pid, &st, WNOHANG));
            char why[96];
            snprintf(why, sizeof(why), "its process ended between calls (%s)",
                     got > 0 && WIFSIGNALED(st) ? strsignal(WTERMSIG(st))
                                                : "exited");
            set_ended(s, why);
            end_process(s, got > 0 ? 0 : s->pid);
        }
    }
    return s->ended[0] != '\0' ? s->ended : NULL;
}

bool
pw_sbx_session_busy(const struct pw_sbx_session *s)
{
    return s->run != NULL || s->fork != NULL;
}

pid_t
pw_sbx_session_pid(const struct pw_sbx_session *s)
{
    return s->pid;
}

void
pw_sbx_session_free(struct pw_sbx_session *s)
{
    if (s == NULL) {
        return;
    }
    set_ended(s, "closed");
    if (s->fork != NULL) {
        s->fork_abort(s); /* the copy under way fails */
    }
    if (s->run != NULL) {
        /* The call in flight ends as killed; its release frees S. */
        s->orphan = true;
        if (s->not_child) {
            pw_sbx_signal_copy(s->run->pidfd, SIGKILL);
        } else {
            (void)kill(-s->pid, SIGKILL);
            (void)kill(s->pid, SIGKILL);
        }
        return;
    }
    end_process(s, s->pid);
    json_decref(s->seen);
    free(s);
}
