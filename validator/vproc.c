/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * vproc.c - pw_vproc: pw_validate in a forked copy of the caller,
 * one program at a time, over a stream socket.
 *
 * A message is a 32-bit length and its body.  The request: mask, light
 * mask, deps_in_full, the only list, the deps list, the code.  The
 * answer: rc, the error, light, the analysis, the findings.  The caller's
 * side never blocks: its socket is non-blocking and polled by its loop;
 * the process's side reads, validates and writes in turn.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/py.h"
#include "core/util.h"
#include "validator/vproc.h"
#include "validator/diag.h"
#include "validator/script_meta.h"

/* The largest message either side takes (a program is at most a few
 * MiB; its findings are capped by the validator). */
#define MSG_MAX  ((uint32_t)64 << 20)
#define NULL_LEN UINT32_MAX /* a NULL string or list */
#define READ_AT  65536

struct pw_vcheck {
    struct pw_vproc *c;
    struct pw_vcheck_req req;
    pw_vcheck_done_fn done;
    void *ctx;
    bool sent;      /* its request is with the process */
    bool cancelled; /* sent, then cancelled: its answer is thrown away */
    bool ended;     /* failed in pw_vproc_submit: on the ENDED list */
    uint64_t turn;  /* its owner's turn: the lowest goes first */
    struct pw_vcheck_result r; /* an ended one's */
    struct pw_vcheck *next;
};

struct pw_vproc {
    const struct pw_ruleset *rs;
    const struct pw_profiles *p;
    const char *const *extra;
    pw_vproc_compile_fn compile;
    void *compile_ctx;
    pid_t pid;               /* -1: none */
    int fd;                  /* -1: none */
    struct pw_vcheck *head;  /* in order; the head may be sent */
    struct pw_vcheck **tail; /* where the next one goes */
    size_t pending;
    uint64_t turn;     /* the turn of the check sent last */
    struct pw_buf out; /* the head's request, from OUT_OFF on */
    size_t out_off;
    struct pw_buf in; /* an answer coming in */
    /* Checks that failed while being submitted (no process could be
     * forked, or the process was found gone): their DONE is called from
     * the next step, never from pw_vproc_submit (whose caller still
     * holds them); WAKE, an eventfd, makes the loop step. */
    bool submitting;
    struct pw_vcheck *ended;
    int wake;
};

/* --- messages ---------------------------------------------------------- */

static void
put_u32(struct pw_buf *b, uint32_t v)
{
    pw_buf_append(b, &v, sizeof(v));
}

static void
put_u64(struct pw_buf *b, uint64_t v)
{
    pw_buf_append(b, &v, sizeof(v));
}

static void
put_str(struct pw_buf *b, const char *s, size_t len)
{
    put_u32(b, s != NULL ? (uint32_t)len : NULL_LEN);
    if (s != NULL) {
        pw_buf_append(b, s, len);
    }
}

static void
put_vec(struct pw_buf *b, const char *const *v)
{
    uint32_t n = 0;
    while (v != NULL && v[n] != NULL) {
        n++;
    }
    put_u32(b, v != NULL ? n : NULL_LEN);
    for (uint32_t i = 0; i < n; i++) {
        put_str(b, v[i], strlen(v[i]));
    }
}

/* A message being read: BAD once it ran short. */
struct reader {
    const char *p;
    size_t n;
    bool bad;
};

static const char *
take(struct reader *r, size_t n)
{
    if (r->bad || r->n < n) {
        r->bad = true;
        return NULL;
    }
    const char *at = r->p;
    r->p += n;
    r->n -= n;
    return at;
}

static uint32_t
get_u32(struct reader *r)
{
    uint32_t v = 0;
    const char *at = take(r, sizeof(v));
    if (at != NULL) {
        memcpy(&v, at, sizeof(v));
    }
    return v;
}

static uint64_t
get_u64(struct reader *r)
{
    uint64_t v = 0;
    const char *at = take(r, sizeof(v));
    if (at != NULL) {
        memcpy(&v, at, sizeof(v));
    }
    return v;
}

/* A new copy of the next string (its bytes, NULs included, and a NUL
 * after them), or NULL (a NULL one, or the message ran short); *LEN its
 * length. */
static char *
get_str(struct reader *r, size_t *len)
{
    uint32_t n = get_u32(r);
    const char *at = n == NULL_LEN ? NULL : take(r, n);
    if (len != NULL) {
        *len = at != NULL ? n : 0;
    }
    if (at == NULL) {
        return NULL;
    }
    char *copy = pw_xmalloc((size_t)n + 1);
    memcpy(copy, at, n);
    copy[n] = '\0';
    return copy;
}

/* A new NULL-terminated vector of new strings, or NULL. */
static char **
get_vec(struct reader *r)
{
    uint32_t n = get_u32(r);
    if (n == NULL_LEN || r->bad || n > r->n / sizeof(uint32_t)) {
        r->bad |= n != NULL_LEN;
        return NULL;
    }
    char **v = pw_xcalloc((size_t)n + 1, sizeof(*v));
    for (uint32_t i = 0; i < n; i++) {
        v[i] = get_str(r, NULL);
        if (v[i] == NULL) {
            v[i] = pw_xstrdup("");
        }
    }
    return v;
}

static void
free_vec(char **v)
{
    for (size_t i = 0; v != NULL && v[i] != NULL; i++) {
        free(v[i]);
    }
    free(v);
}

/* Frame B's body (from offset 4 on) with its length. */
static void
frame(struct pw_buf *b)
{
    uint32_t n = (uint32_t)(b->len - sizeof(uint32_t));
    memcpy(b->data, &n, sizeof(n));
}

static void
encode_request(struct pw_buf *b, const struct pw_vcheck_req *q)
{
    put_u32(b, 0); /* the length, by frame() */
    put_u64(b, q->mask);
    put_u64(b, q->light_mask);
    put_u32(b, q->deps_in_full);
    put_u32(b, q->compile);
    put_u32(b, q->compile_only);
    put_u32(b, q->caps);
    put_vec(b, q->only);
    put_vec(b, q->deps);
    put_str(b, q->code, q->len);
    frame(b);
}

static void
encode_result(struct pw_buf *b, const struct pw_vcheck_result *r)
{
    put_u32(b, 0);
    put_u32(b, (uint32_t)r->rc);
    put_u32(b, (uint32_t)r->err.code);
    put_str(b, r->err.message, strlen(r->err.message));
    put_u32(b, r->light);
    put_u64(b, (uint64_t)r->an.line_count);
    put_u64(b, (uint64_t)r->an.character_count);
    put_u64(b, (uint64_t)r->an.node_count);
    put_u64(b, (uint64_t)r->an.max_depth);
    put_u64(b, (uint64_t)r->an.estimated_complexity);
    put_u32(b, (uint32_t)r->d.n);
    for (size_t i = 0; i < r->d.n; i++) {
        const struct pw_diag *g = &r->d.v[i];
        put_str(b, g->code, strlen(g->code));
        put_str(b, g->rule, strlen(g->rule));
        put_str(b, g->message, strlen(g->message));
        put_u32(b, (uint32_t)g->line);
        put_u32(b, (uint32_t)g->col);
        put_u32(b, (uint32_t)g->end_line);
        put_u32(b, (uint32_t)g->end_col);
        put_str(b, g->module, g->module != NULL ? strlen(g->module) : 0);
        put_str(b, g->student, g->student != NULL ? strlen(g->student) : 0);
    }
    put_str(b, r->blob, r->blob_len);
    frame(b);
}

/* R from the answer's body; -1 if it is malformed. */
static int
decode_result(struct reader *rd, struct pw_vcheck_result *r)
{
    r->rc = (int)get_u32(rd);
    r->err.code = (enum pw_errcode)get_u32(rd);
    PW_AUTOFREE char *msg = get_str(rd, NULL);
    snprintf(r->err.message, sizeof(r->err.message), "%s",
             msg != NULL ? msg : "");
    r->light = get_u32(rd) != 0;
    r->an.line_count = (long)get_u64(rd);
    r->an.character_count = (long)get_u64(rd);
    r->an.node_count = (long)get_u64(rd);
    r->an.max_depth = (long)get_u64(rd);
    r->an.estimated_complexity = (long)get_u64(rd);
    uint32_t n = get_u32(rd);
    for (uint32_t i = 0; i < n && !rd->bad; i++) {
        PW_AUTOFREE char *code = get_str(rd, NULL);
        PW_AUTOFREE char *rule = get_str(rd, NULL);
        char *message = get_str(rd, NULL);
        int line = (int)get_u32(rd);
        int col = (int)get_u32(rd);
        int eline = (int)get_u32(rd);
        int ecol = (int)get_u32(rd);
        char *module = get_str(rd, NULL);
        char *student = get_str(rd, NULL);
        if (rd->bad || code == NULL || rule == NULL || message == NULL) {
            free(message);
            free(module);
            free(student);
            rd->bad = true;
            break;
        }
        pw_diags_add(&r->d, code, rule, message, line, col, eline, ecol);
        r->d.v[r->d.n - 1].module = module;
        r->d.v[r->d.n - 1].student = student;
    }
    r->blob = get_str(rd, &r->blob_len);
    return rd->bad || rd->n != 0 ? -1 : 0;
}

/* --- the validator process --------------------------------------------------
 */

/* Read exactly N bytes; false at the end of the stream. */
static bool
read_full(int fd, void *p, size_t n)
{
    char *at = p;
    while (n > 0) {
        ssize_t got = read(fd, at, n);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return false;
        }
        at += got;
        n -= (size_t)got;
    }
    return true;
}

/* The check of the request in RD into R, as the server's tools did it in
 * their own process. */
static void
check_one(const struct pw_vproc *c, struct reader *rd,
          struct pw_vcheck_result *r)
{
    pw_profile_mask mask = (pw_profile_mask)get_u64(rd);
    pw_profile_mask light = (pw_profile_mask)get_u64(rd);
    bool deps_in_full = get_u32(rd) != 0;
    bool compile = get_u32(rd) != 0;
    bool compile_only = get_u32(rd) != 0;
    unsigned caps = get_u32(rd);
    char **only = get_vec(rd);
    char **deps = get_vec(rd);
    size_t len = 0;
    char *code = get_str(rd, &len);
    if (rd->bad || code == NULL) {
        r->rc = pw_fail(&r->err, PW_ERR_INTERNAL,
                        "the validator's process got a malformed request");
    } else if (compile_only) {
        r->blob = c->compile != NULL ? c->compile(c->compile_ctx, code, len,
                                                  caps, &r->blob_len)
                                     : NULL;
    } else {
        struct pw_importset set = {c->p, mask & light, c->extra,
                                   (const char *const *)only};
        if (light != 0 &&
            pw_validate(c->rs, &set, code, len, &r->d, &r->an, &r->err) == 0) {
            pw_script_meta_check(c->rs, &set, NULL, 0,
                                 (const char *const *)deps, &r->d);
            r->light = r->d.n == 0;
        }
        if (!r->light) {
            pw_diags_free(&r->d);
            memset(&r->an, 0, sizeof(r->an));
            memset(&r->err, 0, sizeof(r->err));
            set.mask = mask;
            r->rc =
                pw_validate(c->rs, &set, code, len, &r->d, &r->an, &r->err);
            if (r->rc == 0 && deps_in_full) {
                pw_script_meta_check(c->rs, &set, NULL, 0,
                                     (const char *const *)deps, &r->d);
            }
        }
        if (compile && c->compile != NULL && r->rc == 0 && r->d.n == 0) {
            r->blob =
                c->compile(c->compile_ctx, code, len, caps, &r->blob_len);
        }
    }
    free(code);
    free_vec(only);
    free_vec(deps);
}

static _Noreturn void
vproc_main(const struct pw_vproc *c, int fd, pid_t parent)
{
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) {
        _exit(0);
    }
    (void)prctl(PR_SET_NAME, "pyward-vproc");
    /* The server's signals are the server's: this process ends with its
     * socket or its parent. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, NULL);
    /* Nothing of the server's but stderr: not its protocol, not its
     * listening socket. */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(2, 1) < 0 || dup2(fd, 3) < 0) {
        _exit(1);
    }
    (void)close_range(4, ~0U, 0);
    fd = 3;
    for (;;) {
        uint32_t n;
        if (!read_full(fd, &n, sizeof(n)) || n > MSG_MAX) {
            _exit(0);
        }
        char *body = pw_xmalloc((size_t)n + 1);
        if (!read_full(fd, body, n)) {
            _exit(0);
        }
        struct reader rd = {body, n, false};
        struct pw_vcheck_result r;
        memset(&r, 0, sizeof(r));
        pw_diags_init(&r.d);
        check_one(c, &rd, &r);
        free(body);
        struct pw_buf b;
        pw_buf_init(&b);
        encode_result(&b, &r);
        pw_vcheck_result_clear(&r);
        if (pw_write_all(fd, b.data, b.len) < 0) {
            _exit(0);
        }
        pw_buf_free(&b);
    }
}

/* Fork C's process; -1 with ERR. */
static int
spawn(struct pw_vproc *c, struct pw_error *err)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        return pw_fail_errno(err, PW_ERR_INTERNAL, "socketpair (validator)");
    }
    pid_t parent = getpid();
    PyOS_BeforeFork();
    pid_t pid = fork();
    if (pid == 0) {
        PyOS_AfterFork_Child();
        close(sv[0]);
        vproc_main(c, sv[1], parent);
    }
    int saved = errno;
    PyOS_AfterFork_Parent();
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        errno = saved;
        return pw_fail_errno(err, PW_ERR_INTERNAL, "fork (validator)");
    }
    if (pw_set_nonblock(sv[0], true) < 0) {
        close(sv[0]);
        (void)kill(pid, SIGKILL);
        (void)waitpid(pid, NULL, 0);
        return pw_fail_errno(err, PW_ERR_INTERNAL, "validator socket");
    }
    c->pid = pid;
    c->fd = sv[0];
    return 0;
}

/* C's process killed and reaped, its socket closed. */
static void
stop(struct pw_vproc *c)
{
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    if (c->pid > 0) {
        (void)kill(c->pid, SIGKILL);
        while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR) {
        }
        c->pid = -1;
    }
    pw_buf_free(&c->out);
    pw_buf_free(&c->in);
    c->out_off = 0;
}

/* --- the caller's side ------------------------------------------------ */

void
pw_vcheck_result_clear(struct pw_vcheck_result *r)
{
    pw_diags_free(&r->d);
    free(r->blob);
    r->blob = NULL;
    r->blob_len = 0;
}

struct pw_vproc *
pw_vproc_new(const struct pw_ruleset *rs, const struct pw_profiles *p,
             const char *const *extra, pw_vproc_compile_fn compile, void *ctx,
             struct pw_error *err)
{
    struct pw_vproc *c = pw_xcalloc(1, sizeof(*c));
    c->rs = rs;
    c->p = p;
    c->extra = extra;
    c->compile = compile;
    c->compile_ctx = ctx;
    c->pid = -1;
    c->fd = -1;
    c->tail = &c->head;
    c->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (c->wake < 0) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "eventfd (validator)");
        free(c);
        return NULL;
    }
    pw_buf_init(&c->out);
    pw_buf_init(&c->in);
    if (spawn(c, err) < 0) {
        close(c->wake);
        free(c);
        return NULL;
    }
    return c;
}

void
pw_vproc_free(struct pw_vproc *c)
{
    if (c == NULL) {
        return;
    }
    stop(c);
    while (c->head != NULL) {
        struct pw_vcheck *k = c->head;
        c->head = k->next;
        free(k);
    }
    while (c->ended != NULL) {
        struct pw_vcheck *k = c->ended;
        c->ended = k->next;
        pw_vcheck_result_clear(&k->r);
        free(k);
    }
    close(c->wake);
    free(c);
}

size_t
pw_vproc_pending(const struct pw_vproc *c)
{
    return c->pending;
}

int
pw_vproc_pid(const struct pw_vproc *c)
{
    return c->pid;
}

/* Take the head off C's list (it is answered, or failed). */
static struct pw_vcheck *
pop(struct pw_vproc *c)
{
    struct pw_vcheck *k = c->head;
    c->head = k->next;
    if (c->head == NULL) {
        c->tail = &c->head;
    }
    c->pending--;
    return k;
}

/* End K (off the list) with R: its DONE unless it was cancelled; kept
 * for the next step when it ends inside pw_vproc_submit. */
static void
finish(struct pw_vcheck *k, struct pw_vcheck_result *r)
{
    struct pw_vproc *c = k->c;
    if (c->submitting && !k->cancelled) {
        k->r = *r;
        k->ended = true;
        k->next = c->ended;
        c->ended = k;
        uint64_t one = 1;
        (void)!write(c->wake, &one, sizeof(one));
        return;
    }
    if (!k->cancelled) {
        k->done(k->ctx, r); /* R is the callee's */
    } else {
        pw_vcheck_result_clear(r);
    }
    free(k);
}

/* C's process ended (or answered nonsense): the check it had fails, the
 * next one forks a new process. */
static void
lost(struct pw_vproc *c, const char *why)
{
    pw_log(PW_LOG_WARN, "the validator process %d %s", (int)c->pid, why);
    stop(c);
    if (c->head != NULL && c->head->sent) {
        struct pw_vcheck_result r;
        memset(&r, 0, sizeof(r));
        pw_diags_init(&r.d);
        r.rc = pw_fail(&r.err, PW_ERR_INTERNAL,
                       "the validator process %s; the program was not "
                       "checked",
                       why);
        finish(pop(c), &r);
    }
}

/* Write what the socket takes of the head's request. */
static void
flush(struct pw_vproc *c)
{
    while (c->out_off < c->out.len) {
        ssize_t n = send(c->fd, c->out.data + c->out_off,
                         c->out.len - c->out_off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        }
        if (n < 0) {
            lost(c, errno == EPIPE ? "ended" : "could not be written to");
            return;
        }
        c->out_off += (size_t)n;
    }
    pw_buf_free(&c->out);
    c->out_off = 0;
}

/* The waiting check to go next moved to the head: the one of the lowest
 * turn, the first come of those (none is sent: the head is not). */
static void
take_turn(struct pw_vproc *c)
{
    struct pw_vcheck **best = &c->head;
    for (struct pw_vcheck **p = &c->head; *p != NULL; p = &(*p)->next) {
        if ((*p)->turn < (*best)->turn) {
            best = p;
        }
    }
    struct pw_vcheck *k = *best;
    if (k == c->head) {
        return;
    }
    *best = k->next;
    if (c->tail == &k->next) {
        c->tail = best;
    }
    k->next = c->head;
    c->head = k;
}

/* Send the head if it waits and the process is free (forked anew if its
 * process ended), the check whose turn it is moved there first. */
static void
kick(struct pw_vproc *c)
{
    while (c->head != NULL && !c->head->sent) {
        take_turn(c);
        struct pw_error err = {0};
        if (c->fd >= 0 && c->pid > 0 && waitpid(c->pid, NULL, WNOHANG) != 0) {
            /* It ended while it had nothing to do: no check is lost. */
            pw_log(PW_LOG_WARN, "the validator process %d ended", (int)c->pid);
            c->pid = -1;
            stop(c);
        }
        if (c->fd < 0 && spawn(c, &err) < 0) {
            struct pw_vcheck_result r;
            memset(&r, 0, sizeof(r));
            pw_diags_init(&r.d);
            r.rc = -1;
            r.err = err;
            finish(pop(c), &r);
            continue;
        }
        c->head->sent = true;
        c->turn = c->head->turn > c->turn ? c->head->turn : c->turn;
        pw_buf_free(&c->out);
        encode_request(&c->out, &c->head->req);
        c->out_off = 0;
        flush(c);
        return;
    }
}

struct pw_vcheck *
pw_vproc_submit(struct pw_vproc *c, const struct pw_vcheck_req *req,
                pw_vcheck_done_fn done, void *ctx)
{
    struct pw_vcheck *k = pw_xcalloc(1, sizeof(*k));
    k->c = c;
    k->req = *req;
    k->done = done;
    k->ctx = ctx;
    /* The turn after its owner's last check still here, or the current
     * one: an owner with nothing waiting goes before those with more. */
    k->turn = c->turn;
    for (const struct pw_vcheck *o = c->head; o != NULL; o = o->next) {
        if (o->req.owner == req->owner && o->turn >= k->turn) {
            k->turn = o->turn + 1;
        }
    }
    *c->tail = k;
    c->tail = &k->next;
    c->pending++;
    c->submitting = true;
    kick(c);
    c->submitting = false;
    return k;
}

void
pw_vcheck_cancel(struct pw_vcheck *k)
{
    if (k == NULL) {
        return;
    }
    struct pw_vproc *c = k->c;
    if (k->ended) {
        for (struct pw_vcheck **p = &c->ended; *p != NULL; p = &(*p)->next) {
            if (*p == k) {
                *p = k->next;
                break;
            }
        }
        pw_vcheck_result_clear(&k->r);
        free(k);
        return;
    }
    if (k->sent) {
        k->cancelled = true; /* its request is copied in C's buffer */
        return;
    }
    for (struct pw_vcheck **p = &c->head; *p != NULL; p = &(*p)->next) {
        if (*p == k) {
            *p = k->next;
            if (c->tail == &k->next) {
                c->tail = p;
            }
            c->pending--;
            free(k);
            return;
        }
    }
}

struct pollfd
pw_vproc_pollfd(const struct pw_vproc *c)
{
    if (c->ended != NULL) {
        return (struct pollfd){c->wake, POLLIN, 0};
    }
    bool busy = c->head != NULL && c->head->sent;
    short ev = (short)(POLLIN | (c->out_off < c->out.len ? POLLOUT : 0));
    return (struct pollfd){busy && c->fd >= 0 ? c->fd : -1, ev, 0};
}

/* The answer in C's input, if whole: the head ended with it.  True if
 * one was. */
static bool
take_answer(struct pw_vproc *c)
{
    uint32_t n;
    if (c->in.len < sizeof(n)) {
        return false;
    }
    memcpy(&n, c->in.data, sizeof(n));
    if (n > MSG_MAX || c->head == NULL || !c->head->sent) {
        lost(c, "gave a malformed answer");
        return false;
    }
    if (c->in.len < sizeof(n) + n) {
        return false;
    }
    struct pw_vcheck_result r;
    memset(&r, 0, sizeof(r));
    pw_diags_init(&r.d);
    struct reader rd = {c->in.data + sizeof(n), n, false};
    int bad = decode_result(&rd, &r);
    size_t rest = c->in.len - sizeof(n) - n;
    memmove(c->in.data, c->in.data + sizeof(n) + n, rest);
    c->in.len = rest;
    if (bad < 0) {
        pw_vcheck_result_clear(&r);
        lost(c, "gave a malformed answer");
        return false;
    }
    finish(pop(c), &r);
    return true;
}

/* The checks that failed in pw_vproc_submit: their DONE now. */
static void
end_parked(struct pw_vproc *c)
{
    uint64_t n;
    (void)!read(c->wake, &n, sizeof(n));
    while (c->ended != NULL) {
        struct pw_vcheck *k = c->ended;
        c->ended = k->next;
        k->ended = false;
        struct pw_vcheck_result r = k->r;
        finish(k, &r);
    }
}

void
pw_vproc_step(struct pw_vproc *c, short revents)
{
    if (c->ended != NULL) {
        end_parked(c); /* their pollfd was WAKE's: C's own comes next */
        kick(c);
        return;
    }
    if (c->fd >= 0 && (revents & POLLOUT) != 0) {
        flush(c);
    }
    if (c->fd >= 0 && (revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        for (;;) {
            if (c->in.cap - c->in.len < READ_AT + 1) {
                /* Doubled: an answer with a compiled program is megabytes. */
                size_t cap = c->in.cap > 0 ? 2 * c->in.cap : 2 * READ_AT;
                while (cap - c->in.len < READ_AT + 1) {
                    cap *= 2;
                }
                c->in.data = pw_xrealloc(c->in.data, cap);
                c->in.cap = cap;
            }
            ssize_t n = read(c->fd, c->in.data + c->in.len, READ_AT);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                break;
            }
            if (n <= 0) {
                lost(c, n == 0 ? "ended" : "could not be read from");
                break;
            }
            c->in.len += (size_t)n;
            c->in.data[c->in.len] = '\0';
        }
        while (c->fd >= 0 && take_answer(c)) {
        }
    }
    kick(c);
}
