/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fork.c - fork_session, the server's side: ask a session's process to
 * clone itself (copy.c), let that clone through the seccomp listener and
 * nothing else, give each new process its pipes while it waits in its
 * hello (SECCOMP_IOCTL_NOTIF_ADDFD), a workspace of its own to a copy of
 * a session with files (wscopy.c), and keep the copies' family
 * (family.c).  The whole exchange happens between two calls of the
 * session, in a few milliseconds, with the session's listener, request
 * pipe and result channel.  A hello is taken only from a process one of
 * the clones let through made (gate.c): another member of the family
 * that says one is killed as for any refused call.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/session/family.h"
#include "sandbox/os/filter.h"
#include "sandbox/session/fork.h"
#include "sandbox/session/gate.h"
#include "sandbox/run/record.h"
#include "sandbox/session/record.h"
#include "sandbox/run/spare.h"
#include "sandbox/run/step.h"
#include "sandbox/os/workspace.h"
#include "sandbox/session/wscopy.h"

/* A fork under way: what the server let through and what came back. */
struct fork_op {
    struct pw_sbx_session *s;
    pid_t forker;            /* the session's process, which clones itself */
    bool first;              /* its first copy: it moves off PID 1 too */
    int granted;             /* clones let through */
    struct pw_sbx_gate gate; /* whose hellos are taken */
    int children;            /* as the forker reported, -1 before */
    int hellos;
    pid_t same; /* first copy: the session's new process */
    int same_pidfd;
    struct pw_sbx_session *copy;
    pid_t entering; /* the copy, until its chdir into its workspace */
    bool again;     /* the clone met RLIMIT_NPROC */
    char error[200];
};

static void op_fail(struct fork_op *op, const char *fmt, ...) PW_PRINTF(2, 3);

static void
op_fail(struct fork_op *op, const char *fmt, ...)
{
    if (op->error[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        (void)vsnprintf(op->error, sizeof(op->error), fmt, ap);
        va_end(ap);
    }
}

/* The copy's record: its channels put in place while it waits in its
 * hello, its own pidfd, the family's listener and workspace. */
static struct pw_sbx_session *
adopt_copy(struct fork_op *op, const struct pw_sbx_notice *n, int pidfd)
{
    struct pw_sbx_session *s = op->s;
    int server[4];
    int child[5];
    struct pw_error err = {0};
    if (pw_sbx_copy_channels(server, child, &err) < 0) {
        op_fail(op, "%.190s", err.message);
        return NULL;
    }
    int rc = 0;
    for (int fd = 0; fd < 5 && rc == 0; fd++) {
        rc = pw_sbx_notify_give_fd(s->fd.listener, n, child[fd], fd);
    }
    for (int fd = 0; fd < 5; fd++) {
        close(child[fd]);
    }
    struct pw_sbx_session *c = pw_xcalloc(1, sizeof(*c));
    c->z = s->z;
    c->pid = n->pid;
    /* The workspace fd is a tmpfs's only (none when the session has no
     * files): the copy's is its own, mounted below. */
    c->fd =
        (struct pw_sbx_session_fds){pidfd,
                                    server[0],
                                    server[1],
                                    server[2],
                                    server[3],
                                    -1,
                                    fcntl(s->fd.listener, F_DUPFD_CLOEXEC, 0),
                                    -1,
                                    -1};
    pw_sbx_proc_fds(n->pid, &c->fd.stat_fd, &c->fd.status_fd);
    c->caps = s->caps;
    c->limits = s->limits;
    c->seen = json_deep_copy(s->seen);
    c->not_child = true;
    if (rc < 0 || c->fd.listener < 0) {
        op_fail(op, "the copy's channels: %s", strerror(errno));
        pw_sbx_signal_copy(pidfd, SIGKILL);
        c->pid = 0;
    } else if (pw_sbx_workspace_kind(s->z, s->caps) == PW_SBX_WS_TMPFS) {
        /* The session's size: its memory limit's share, which the
         * copy's AS limit (the session's) leaves room for. */
        long long bytes =
            pw_sbx_workspace_bytes(s->z, s->caps, s->limits.memory_bytes);
        c->fd.ws_fd = pw_sbx_copy_workspace(
            s->z, bytes, pidfd, pw_sbx_family_scratch(s->fam), &err);
        if (c->fd.ws_fd < 0) {
            op_fail(op, "%.190s", err.message);
            pw_sbx_signal_copy(pidfd, SIGKILL);
            c->pid = 0;
        }
    }
    return c;
}

/* A new process's hello: the session's own (first copy) or the copy's.
 * Let its setsid go on once its channels are in place. */
static void
take_hello(struct fork_op *op, const struct pw_sbx_notice *n)
{
    int listener = op->s->fd.listener;
    int pidfd = (int)syscall(SYS_pidfd_open, n->pid, 0U);
    bool same = n->arg0 == PW_SBX_COPY_SAME && op->first && op->same == 0;
    bool copy = n->arg0 == PW_SBX_COPY_NEW && op->copy == NULL;
    if (pidfd < 0 || (!same && !copy)) {
        op_fail(op, "an unexpected hello");
        (void)kill(n->pid, SIGKILL); /* stopped in the call: still there */
        if (pidfd >= 0) {
            close(pidfd);
        }
        return;
    }
    if (same) {
        op->same = n->pid;
        op->same_pidfd = pidfd;
        op->hellos++;
    } else {
        op->copy = adopt_copy(op, n, pidfd);
        op->entering = n->pid; /* done at its chdir */
    }
    if (pw_sbx_notify_let_copy(listener, n) < 0) {
        op_fail(op, "a new process ended in its hello");
    }
}

static void
fork_notice(struct fork_op *op, const struct pw_sbx_notice *n)
{
    int listener = op->s->fd.listener;
    int most = op->first ? 2 : 1;
    if (n->nr == SYS_clone && n->pid == op->forker && op->granted < most) {
        if (pw_sbx_gate_let(&op->gate, op->forker) < 0) {
            op_fail(op, "the fork gate: /proc/%d/task/%d/children: %s",
                    (int)op->forker, (int)op->forker, strerror(errno));
        } else if (pw_sbx_notify_let_copy(listener, n) == 0) {
            op->granted++;
            return;
        }
    }
    /* The hello of a process one of those clones made; never a member's
     * (an earlier copy is the forker's child too). */
    if (n->nr == SYS_setsid && n->arg1 == PW_SBX_HELLO &&
        pw_sbx_family_find(op->s->fam, n->pid) == NULL &&
        pw_sbx_gate_admits(&op->gate, n->pid)) {
        take_hello(op, n);
        return;
    }
    if (n->nr == SYS_chdir && n->pid == op->entering && op->entering > 0) {
        op->entering = 0;
        op->hellos++;
        if (pw_sbx_notify_let_copy(listener, n) < 0) {
            op_fail(op, "the copy ended entering its workspace");
        }
        return;
    }
    if (pw_sbx_session_route(op->s, listener, n)) {
        return; /* another member's */
    }
    const char *name = pw_sbx_syscall_name(n->nr);
    op_fail(op, "the session made a refused system call (%s)",
            name != NULL ? name : "?");
    (void)kill(n->pid, SIGKILL);
}

/* The forker's "R" record: how many processes it made. */
static void
read_answer(struct fork_op *op, struct pw_buf *b)
{
    char chunk[4096];
    ssize_t n;
    while ((n = read(op->s->fd.res, chunk, sizeof(chunk))) > 0) {
        pw_buf_append(b, chunk, (size_t)n);
    }
    const char *r = memchr(b->data, 'R', b->len);
    const char *nl =
        r != NULL ? memchr(r, '\n', b->len - (size_t)(r - b->data)) : NULL;
    if (nl == NULL) {
        return;
    }
    json_auto_t *v = json_loadb(r + 1, (size_t)(nl - r) - 1, 0, NULL);
    json_t *k = json_object_get(v, "children"); /* borrowed */
    const char *e = json_string_value(json_object_get(v, "error"));
    op->children = json_is_integer(k) ? (int)json_integer_value(k) : 0;
    if (op->children > op->granted) {
        op->children = op->granted;
    }
    json_t *no = json_object_get(v, "errno"); /* borrowed */
    op->again = json_integer_value(no) == EAGAIN;
    if (op->again) {
        op_fail(op, "the session and its copies have as many processes as "
                    "they may (session_nproc in rules/seccomp.json): close "
                    "a copy first");
    } else if (e != NULL && e[0] != '\0') {
        op_fail(op, "clone: %.120s", e);
    }
}

/* Take what FDS (a fork's pollfds, as pw_sbx_fork_pollfds filled them)
 * say: a notice, the forker's answer, the session's end. */
static void
fork_take(struct fork_op *op, const struct pollfd *fds, struct pw_buf *b)
{
    if (fds[0].revents & POLLIN) {
        struct pw_sbx_notice n;
        if (pw_sbx_notify_take(op->s->fd.listener, &n) == 0) {
            fork_notice(op, &n);
        }
    }
    if (fds[1].revents != 0) {
        read_answer(op, b);
    }
    if (fds[2].revents != 0 && op->children < 0) {
        op_fail(op, "the session's process ended");
    }
}

/* True once OP has what it waits for: the answer and every hello, or an
 * error. */
static bool
fork_answered(const struct fork_op *op)
{
    return op->error[0] != '\0' ||
           (op->children >= 0 && op->hellos >= op->children);
}

/* First copy: the session now runs in its new process. */
static void
move_session(struct pw_sbx_session *s, pid_t pid, int pidfd)
{
    close(s->fd.pidfd);
    close(s->fd.stat_fd);
    close(s->fd.status_fd);
    s->pid = pid;
    s->fd.pidfd = pidfd;
    pw_sbx_proc_fds(pid, &s->fd.stat_fd, &s->fd.status_fd);
    s->not_child = true;
}

static const char *
fork_refused(struct pw_sbx_session *s)
{
    if (s->run != NULL) {
        return "the session is busy: a call is running";
    }
    if (!s->z->pidns) {
        return "copies need a PID namespace of their own, which this host "
               "does not give";
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)s->pid,
             (int)s->pid);
    if (access(path, R_OK) < 0) {
        return "copies need the kernel's list of a process's children "
               "(/proc/PID/task/TID/children, CONFIG_PROC_CHILDREN), which "
               "this host does not give";
    }
    enum pw_sbx_ws ws = pw_sbx_workspace_kind(s->z, s->caps);
    if (ws == PW_SBX_WS_HOST) {
        return "the session's files are in a host directory (no private "
               "workspace tmpfs here): a copy would share them";
    }
    if (ws == PW_SBX_WS_TMPFS && !pw_sbx_ws_copyable(&s->z->layers, s->caps)) {
        return "a copy's own workspace needs user namespaces and a "
               "temporary directory hidden in the view, which this host "
               "does not give: only sessions without files are copied here";
    }
    return NULL;
}

/* The family after the op: the session moved (or not), the copy in. */
static struct pw_sbx_session *
fork_settle(struct fork_op *op, struct pw_error *err)
{
    struct pw_sbx_session *s = op->s;
    if (op->first && op->same > 0) {
        move_session(s, op->same, op->same_pidfd);
        pw_sbx_family_moved(s->fam, s, op->same);
    } else if (op->first) {
        s->scratch = pw_sbx_family_dissolve(s->fam);
        s->fam = NULL;
    }
    struct pw_sbx_session *c = op->copy;
    if (c != NULL && c->pid > 0 && op->error[0] == '\0') {
        c->fam = s->fam;
        c->route = pw_sbx_session_route;
        pw_sbx_family_add(s->fam, c, c->pid);
        return c;
    }
    if (c != NULL) {
        pw_sbx_signal_copy(c->fd.pidfd, SIGKILL);
        pw_sbx_session_close_fds(&c->fd);
        json_decref(c->seen);
        free(c);
    }
    pw_fail(err, PW_ERR_SANDBOX, "fork_session: %s",
            op->error[0] != '\0' ? op->error : "no copy was made");
    return NULL;
}

/* How long a session has to answer a fork request, and to get past a
 * process cap that copies closed a moment ago still hold. */
#define FORK_ANSWER_S 5.0
#define FORK_AGAIN_S  2.0
#define FORK_RETRY_S  0.01

struct pw_sbx_fork {
    struct pw_sbx_session *s; /* NULL once it was freed (closed) */
    struct fork_op op;
    struct pw_buf answer; /* the forker's records */
    double deadline;      /* of the answer, or of the next try */
    double until;         /* tries after a transient cap end here */
    bool waiting;         /* for the next try, not for an answer */
    struct pw_error err;  /* why it failed, once it has */
};

/* Send one fork request of F's session (a new op). */
static void
fork_begin(struct pw_sbx_fork *f)
{
    struct pw_sbx_session *s = f->s;
    pw_sbx_session_drop_leftovers(s);
    f->op = (struct fork_op){.s = s,
                             .forker = s->pid,
                             .first = s->fam == NULL,
                             .children = -1,
                             .same_pidfd = -1};
    pw_buf_free(&f->answer);
    if (f->op.first) {
        s->fam = pw_sbx_family_new(s->z, s->pid, s->scratch);
        s->route = pw_sbx_session_route;
        s->scratch = NULL;
        pw_sbx_family_add(s->fam, s, s->pid);
    }
    static const struct pw_importset none;
    struct pw_sbx_request req = {.code = "", .imports = &none, .fork = true};
    if (pw_sbx_request_write(s->fd.ctl, &req, &s->limits) < 0) {
        op_fail(&f->op, "the session's request pipe: %s", strerror(errno));
    }
    f->waiting = false;
    f->deadline = pw_now() + FORK_ANSWER_S;
}

/* The cap met while the family's live sessions, their init and the new
 * processes fit under it: some closed copy is still being torn down. */
static bool
transient(const struct pw_sbx_session *s)
{
    long long want =
        s->fam != NULL ? (long long)pw_sbx_family_size(s->fam) + 2 : 3;
    return want <= s->z->policy.session_nproc;
}

/* The session is freed while F is under way: the op ends now (the copy,
 * if one came, killed), and F's next step says so. */
static void
fork_abort(struct pw_sbx_session *s)
{
    struct pw_sbx_fork *f = s->fork;
    if (!f->waiting) {
        op_fail(&f->op, "the session was closed");
        (void)fork_settle(&f->op, &f->err);
    } else {
        pw_fail(&f->err, PW_ERR_USAGE, "fork_session: the session was closed");
    }
    s->fork = NULL;
    f->s = NULL;
}

struct pw_sbx_fork *
pw_sbx_fork_start(struct pw_sbx_session *s, struct pw_error *err)
{
    const char *why = s->fork != NULL ? "a copy is already being made"
                                      : pw_sbx_session_ended(s);
    if (why != NULL) {
        pw_fail(err, PW_ERR_USAGE, "%s%s",
                s->fork != NULL ? "fork_session: " : "session ended: ", why);
        return NULL;
    }
    why = fork_refused(s);
    if (why != NULL) {
        pw_fail(err, PW_ERR_USAGE, "fork_session: %s", why);
        return NULL;
    }
    struct pw_sbx_fork *f = pw_xcalloc(1, sizeof(*f));
    f->s = s;
    f->until = pw_now() + FORK_AGAIN_S;
    pw_buf_init(&f->answer);
    s->fork = f;
    s->fork_abort = fork_abort;
    fork_begin(f);
    return f;
}

int
pw_sbx_fork_pollfds(const struct pw_sbx_fork *f, struct pollfd *fds)
{
    if (f->s == NULL || f->waiting) {
        return 0;
    }
    fds[0] = (struct pollfd){f->s->fd.listener, POLLIN, 0};
    fds[1] = (struct pollfd){f->s->fd.res, POLLIN, 0};
    fds[2] = (struct pollfd){f->s->fd.pidfd, POLLIN, 0};
    return 3;
}

double
pw_sbx_fork_deadline(const struct pw_sbx_fork *f)
{
    return f->s == NULL ? 0 : f->deadline;
}

/* F is over: *COPY or ERR; F freed. */
static bool
fork_over(struct pw_sbx_fork *f, struct pw_sbx_session *c,
          struct pw_sbx_session **copy, struct pw_error *err)
{
    if (f->s != NULL) {
        f->s->fork = NULL;
    }
    *copy = c;
    if (c == NULL) {
        *err = f->err;
    }
    pw_buf_free(&f->answer);
    free(f);
    return true;
}

bool
pw_sbx_fork_step(struct pw_sbx_fork *f, const struct pollfd *fds, int n,
                 struct pw_sbx_session **copy, struct pw_error *err)
{
    if (f->s == NULL) {
        return fork_over(f, NULL, copy, err); /* the session was closed */
    }
    double now = pw_now();
    if (f->waiting) {
        if (now < f->deadline) {
            return false;
        }
        fork_begin(f);
        return false;
    }
    if (n >= 3) {
        fork_take(&f->op, fds, &f->answer);
    }
    if (!fork_answered(&f->op) && now >= f->deadline) {
        op_fail(&f->op, "the session did not answer within %g s",
                FORK_ANSWER_S);
    }
    if (!fork_answered(&f->op)) {
        return false;
    }
    struct pw_sbx_session *c = fork_settle(&f->op, &f->err);
    if (c == NULL && f->op.again && now <= f->until && transient(f->s)) {
        /* Copies closed a moment ago still count until the kernel has
         * torn them down: another try soon. */
        f->waiting = true;
        f->deadline = now + FORK_RETRY_S;
        return false;
    }
    return fork_over(f, c, copy, err);
}

struct pw_sbx_session *
pw_sbx_session_fork(struct pw_sbx_session *s, struct pw_error *err)
{
    struct pw_sbx_fork *f = pw_sbx_fork_start(s, err);
    struct pw_sbx_session *c = NULL;
    while (f != NULL) {
        struct pollfd p[3];
        int n = pw_sbx_fork_pollfds(f, p);
        int ms = (int)ceil((pw_sbx_fork_deadline(f) - pw_now()) * 1000);
        if (PW_RETRY(poll(p, (nfds_t)n, ms < 0 ? 0 : ms)) < 0) {
            n = 0;
        }
        if (pw_sbx_fork_step(f, p, n, &c, err)) {
            break;
        }
    }
    return c;
}

bool
pw_sbx_session_route(struct pw_sbx_session *s, int listener,
                     const struct pw_sbx_notice *n)
{
    if (s->fam == NULL) {
        return false;
    }
    struct pw_sbx_session *m = pw_sbx_family_find(s->fam, n->pid);
    if (m == s) {
        return false;
    }
    if (m != NULL && m->run != NULL) {
        pw_sbx_run_notice(m->run, n);
        return true;
    }
    if (n->nr == SYS_exit_group && pw_sbx_notify_let_exit(listener, n) == 0) {
        return true;
    }
    /* A refused call between calls: the process ends, its session says
     * so at its next call. */
    if (m != NULL) {
        pw_sbx_signal_copy(m->fd.pidfd, SIGKILL);
    } else {
        (void)kill(n->pid, SIGKILL);
    }
    return true;
}
