/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * spare.c - a child forked ahead of the next run, prepared.
 *
 * Most of a run's latency used to be the interpreter touching pages
 * after fork and the OS checklist (namespaces, mounts, landlock,
 * seccomp).  A spare forks ahead and installs every layer that does not
 * depend on the request (pw_sbx_child_setup: process group, network
 * namespace without the network capability, fds, environment, fixed
 * rlimits, uid drop, user/IPC/UTS/mount namespaces, no_new_privs,
 * landlock, signals, seccomp), then waits on its request pipe.  If the
 * request has not come within WARM_AFTER_MS, it warms the run's pages up
 * with trusted code (compiling and executing a sample program, no user
 * code) a step at a time, and stops as soon as the request arrives: a
 * client that pauses between requests gets a warm spare, one that sends
 * them back to back gets a spare that is ready sooner and costs less
 * CPU.  The request (limits, capabilities, import allow-list, source) is
 * a single write; the spare lowers its CPU and AS rlimits to the
 * request's, compiles the source, and finishes the checklist
 * (interpreter layers, audit hook) before running it.  A request the
 * spare was not prepared for (PW_SBX_OS_CAPS, and the workspace tmpfs's
 * size, which depends on the memory limit: pw_sbx_spare_key) is refused
 * by the zygote before it is sent and by the spare if it arrives.
 * Nothing of one run reaches another: each spare serves one run, or the
 * calls of one session (a request marked as a session's: after each
 * call's report the spare waits for the next call on its request pipe;
 * session.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/py.h"
#include "sandbox/interp/audit.h"
#include "sandbox/interp/guard.h"
#include "sandbox/run/record.h"
#include "sandbox/session/record.h"
#include "sandbox/run/child.h"
#include "sandbox/run/scratch.h"
#include "sandbox/session/family.h"
#include "sandbox/run/spare.h"
#include "sandbox/os/workspace.h"

#define LIST_MAX 256

struct spare_hdr {
    struct pw_sbx_limits limits;
    unsigned caps;
    pw_profile_mask mask;
    uint64_t code_len;
    uint64_t compiled_len; /* the server's code_blob, or 0: compile */
    uint64_t extra_len;
    uint64_t only_len;
    uint64_t argv_len;  /* "a\0b\0" */
    uint64_t files_len; /* per file: name, NUL, 8-byte length, bytes */
    uint64_t stdin_len; /* a session's call or a batch's test: its stdin */
    uint8_t has_argv;
    uint8_t has_extra;
    uint8_t has_only;
    uint8_t session; /* serve calls until the request pipe's EOF */
    uint8_t fork;    /* a session's: clone it (fork_session), no code */
    uint8_t batch;   /* a test of a batch (its stdin follows the files) */
};

static int
read_exact(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t k = read(fd, c, n);
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            return -1;
        }
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

static char *
read_blob(int fd, uint64_t len)
{
    char *b = pw_xmalloc((size_t)len + 1);
    if (read_exact(fd, b, (size_t)len) < 0) {
        _exit(0);
    }
    b[len] = '\0';
    return b;
}

/* "a\0b\0" -> {"a", "b", NULL} (pointers into BLOB). */
static const char **
split_list(char *blob, uint64_t len)
{
    const char **v = pw_xcalloc(LIST_MAX + 1, sizeof(char *));
    size_t n = 0;
    for (uint64_t i = 0; i < len && n < LIST_MAX; n++) {
        v[n] = blob + i;
        i += strlen(blob + i) + 1;
    }
    return v;
}

/* Keep 0-2 and KEEP; close every other inherited fd (other runs' pipe
 * ends must not stay open in a waiting spare). */
static void
close_except(const int *keep, int n)
{
    int lo = 3;
    for (;;) {
        int next = -1;
        for (int i = 0; i < n; i++) {
            if (keep[i] >= lo && (next < 0 || keep[i] < next)) {
                next = keep[i];
            }
        }
        if (next < 0) {
            (void)syscall(SYS_close_range, (unsigned)lo, ~0U, 0U);
            return;
        }
        if (next > lo) {
            (void)syscall(SYS_close_range, (unsigned)lo, (unsigned)(next - 1),
                          0U);
        }
        lo = next + 1;
    }
}

#define CTL_FD 4 /* where pw_sbx_child_setup puts the request pipe */
/* A session whose next call could not be prepared (pyward's own
 * failure): it ends. */
#define EXIT_SESSION 125

/* A spare of a client that is not hurried (pw_sbx_pace) and left waiting
 * longer than this warms up. */
#define WARM_AFTER_MS 5

/* The request (or the zygote's EOF) is there, or comes within MS. */
static bool
request_within(int ms)
{
    struct pollfd p = {.fd = CTL_FD, .events = POLLIN};
    int rc;
    do {
        rc = poll(&p, 1, ms);
    } while (rc < 0 && errno == EINTR);
    return rc != 0;
}

static bool
request_waiting(void)
{
    return request_within(0);
}

/* A batch (pw_sbx_batch_new): the process runs its first request's
 * program once per test, each with the stdin its request carries
 * (guard.c, batch.py). */
static bool batch_mode;
static bool batch_writes;
static bool batch_compiled; /* the program compiled here, not by the
                             * server (its compile warnings, if any, are
                             * each test's) */
static char *batch_in;      /* the first test's stdin */
static size_t batch_in_len;

/* The next call of a session: its source compiled (under every layer)
 * into the session's globals.  The import allow-list and the limits are
 * the first request's, for the whole session.  False: the request was a
 * fork (answered, nothing to run). */
static bool
next_call(void)
{
    struct spare_hdr h;
    if (read_exact(CTL_FD, &h, sizeof(h)) < 0) {
        pw_sbx_child_end(0); /* the session is closed */
    }
    char *code = read_blob(CTL_FD, h.code_len);
    free(read_blob(CTL_FD, h.compiled_len)); /* a session's call compiles */
    free(read_blob(CTL_FD, h.extra_len));
    free(read_blob(CTL_FD, h.only_len));
    free(read_blob(CTL_FD, h.argv_len));
    free(read_blob(CTL_FD, h.files_len));
    char *in = read_blob(CTL_FD, h.stdin_len);
    if (batch_mode || h.batch) {
        /* A batch serves its program's tests, nothing else. */
        int rc = batch_mode && h.batch && !h.fork
                     ? pw_sbx_guard_batch_test(in, (size_t)h.stdin_len,
                                               batch_writes, batch_compiled)
                     : -1;
        free(code);
        free(in);
        if (rc < 0) {
            pw_sbx_child_end(EXIT_SESSION);
        }
        /* 1: not run, its report asks for a fresh process; the server
         * ends the batch. */
        pw_sbx_audit_next_call();
        return rc == 0;
    }
    if (h.fork) {
        free(code);
        free(in);
        pw_sbx_copy_session();
        return false;
    }
    struct pw_error err = {0};
    PyObject *compiled =
        pw_sbx_guard_compile(code, (size_t)h.code_len, h.caps, NULL, 0, &err);
    free(code);
    int rc = compiled != NULL
                 ? pw_sbx_guard_next(compiled, in, (size_t)h.stdin_len)
                 : -1;
    free(in);
    if (rc < 0) {
        pw_sbx_child_end(EXIT_SESSION);
    }
    Py_DECREF(compiled);
    pw_sbx_audit_next_call();
    return true;
}

/* A batch's first test, made ready before the "G" record: the batch's
 * snapshot of the interpreter's state (batch.py, batchstate.c) is not the
 * test's CPU time. */
static int
first_test(void)
{
    return pw_sbx_guard_batch_test(batch_in, batch_in_len, batch_writes,
                                   batch_compiled);
}

/* A session: after each call's report ("R", written by the guard once
 * stdout and stderr are flushed), wait for the next call on the request
 * pipe; globals, imports and the workspace persist. */
static PW_NORETURN void
serve_session(const struct pw_sbx_child *setup)
{
    struct pw_sbx_child c = *setup;
    if (batch_mode) {
        c.before_hook = first_test;
    }
    pw_sbx_child_begin(&c);
    for (bool run = true;; run = next_call()) {
        if (run) {
            (void)pw_sbx_guard_execute();
        }
    }
}

/* The support files into the workspace (the cwd), before any code of
 * the request runs; a name that is not a plain file name, or a file that
 * cannot be written whole (the workspace is full), refuses the run. */
static void
write_files(const char *blob, uint64_t len)
{
    uint64_t i = 0;
    while (i < len) {
        const char *name = blob + i;
        size_t n = strnlen(name, (size_t)(len - i));
        uint64_t size;
        if (n == (size_t)(len - i) || len - i - n - 1 < sizeof(size)) {
            pw_sbx_child_fail("support files", EINVAL);
        }
        i += n + 1;
        memcpy(&size, blob + i, sizeof(size));
        i += sizeof(size);
        if (size > len - i || !pw_sbx_file_name_ok(name)) {
            pw_sbx_child_fail("support file name", EINVAL);
        }
        int fd = open(
            name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || pw_write_all(fd, blob + i, (size_t)size) < 0) {
            pw_sbx_child_fail("support file", errno);
        }
        close(fd);
        i += size;
    }
}

/* After the setup: read the request, set its limits, compile, run. */
static PW_NORETURN void
serve_request(const struct pw_sbx_child *setup)
{
    struct pw_sbx_child c = *setup;
    struct spare_hdr h;
    if (read_exact(CTL_FD, &h, sizeof(h)) < 0) {
        _exit(0); /* the zygote is done with this spare */
    }
    /* Its capabilities and its memory limit's share for the workspace
     * tmpfs must be those the spare mounted and locked in. */
    if (pw_sbx_spare_key(c.z, h.caps, h.limits.memory_bytes) != c.os_caps) {
        pw_sbx_child_fail("prepared spare", EINVAL);
    }
    /* A batch is served like a session's calls, but may not clone
     * itself: a fresh run's RLIMIT_NPROC. */
    c.session = h.session != 0 && h.batch == 0;
    pw_sbx_child_limits(&c, &h.limits);
    c.session = h.session != 0;
    batch_mode = h.session != 0 && h.batch != 0;
    batch_writes =
        (h.caps & (PW_CAP_WORKSPACE_FILES | PW_CAP_OUTPUT_FILES)) != 0;
    batch_compiled = h.compiled_len == 0;
    char *code = read_blob(CTL_FD, h.code_len);
    char *blob = h.compiled_len > 0 ? read_blob(CTL_FD, h.compiled_len) : NULL;
    char *extra = read_blob(CTL_FD, h.extra_len);
    char *only = read_blob(CTL_FD, h.only_len);
    char *argv = read_blob(CTL_FD, h.argv_len);
    char *files = read_blob(CTL_FD, h.files_len);
    batch_in = read_blob(CTL_FD, h.stdin_len);
    batch_in_len = (size_t)h.stdin_len;
    write_files(files, h.files_len);
    struct pw_importset set = {
        .profiles = c.z->profiles,
        .mask = h.mask,
        .extra = h.has_extra ? split_list(extra, h.extra_len) : NULL,
        .only = h.has_only ? split_list(only, h.only_len) : NULL};
    struct pw_sbx_request req = {
        .code = code,
        .code_len = (size_t)h.code_len,
        .limits = h.limits,
        .imports = &set,
        .caps = h.caps,
        .argv = h.has_argv ? split_list(argv, h.argv_len) : NULL};
    struct pw_error err = {0};
    PyObject *compiled = pw_sbx_guard_compile(code, req.code_len, h.caps, blob,
                                              (size_t)h.compiled_len, &err);
    free(blob);
    c.req = &req;
    /* NULL: reported by prepare as a setup error */
    c.compiled = compiled != NULL ? compiled : Py_None;
    if (c.session) {
        serve_session(&c); /* REQ and SET stay on this frame */
    }
    close(CTL_FD);
    pw_sbx_child_exec(&c);
}

void
pw_sbx_spare_main(const struct pw_zygote *z, int p[4][2], int ctl,
                  const char *scratch, unsigned caps, enum pw_sbx_pace pace)
{
    const struct pw_sbx_mounts *m = &z->layers.mounts;
    int keep[] = {p[0][0],
                  p[1][1],
                  p[2][1],
                  p[3][1],
                  ctl,
                  z->layers.netns_fd,
                  m->shared ? m->shared_fd : -1};
    /* First of all: the zygote's other fds must not stay open here. */
    close_except(keep, (int)PW_N_ELEMENTS(keep));
    PyOS_AfterFork_Child();
    /* The parent is the server (CLONE_PARENT): its death kills the
     * spare.  The uid drop clears this; the checklist asks for it again
     * once the ids are set for good, and checks the server is still its
     * parent then (child.c). */
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    (void)prctl(PR_SET_NAME, "pyward-run");
    struct pw_sbx_child c = {.z = z,
                             .scratch = scratch,
                             .fd_in = p[0][0],
                             .fd_out = p[1][1],
                             .fd_err = p[2][1],
                             .fd_res = p[3][1],
                             .fd_ctl = ctl,
                             .os_caps = caps};
    pw_sbx_child_setup(&c);
    pw_sbx_child_ready(&c);
    if (pace != PW_SBX_PACE_HURRIED && !request_within(WARM_AFTER_MS)) {
        pw_sbx_guard_warmup(request_waiting, pace == PW_SBX_PACE_PAUSES);
    }
    serve_request(&c);
}

struct pw_sbx_spare *
pw_sbx_spare_adopt(pid_t pid, unsigned caps, const int fds[5], char *scratch)
{
    struct pw_sbx_spare *s = pw_xcalloc(1, sizeof(*s));
    s->pid = pid;
    s->caps = caps;
    s->ctl = fds[0];
    for (int i = 0; i < 4; i++) {
        s->fds[i] = fds[i + 1];
    }
    s->scratch = scratch;
    /* The server's own child (CLONE_PARENT), not reaped before it is
     * freed: the pid cannot be reused under the pidfd. */
    s->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    pw_sbx_proc_fds(pid, &s->stat_fd, &s->status_fd);
    return s;
}

void
pw_sbx_proc_fds(pid_t pid, int *stat_fd, int *status_fd)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
    *stat_fd = open(path, O_RDONLY | O_CLOEXEC);
    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    *status_fd = open(path, O_RDONLY | O_CLOEXEC);
}

bool
pw_sbx_spare_alive(const struct pw_sbx_spare *s)
{
    struct pollfd p = {.fd = s->pidfd, .events = POLLIN};
    return s->pidfd >= 0 && poll(&p, 1, 0) == 0;
}

void
pw_sbx_spare_free(const struct pw_zygote *z, struct pw_sbx_spare *s)
{
    if (s == NULL) {
        return;
    }
    if (s->pid > 0) {
        (void)kill(s->pid, SIGKILL);
        (void)PW_RETRY(waitpid(s->pid, NULL, 0));
    }
    int *fds[] = {&s->pidfd,  &s->ctl,    &s->fds[0],  &s->fds[1],
                  &s->fds[2], &s->fds[3], &s->stat_fd, &s->status_fd};
    for (size_t i = 0; i < PW_N_ELEMENTS(fds); i++) {
        if (*fds[i] >= 0) {
            close(*fds[i]);
        }
    }
    pw_sbx_scratch_drop(z, s->scratch);
    free(s);
}

static void
put_list(struct pw_buf *b, const char *const *list, uint64_t *len)
{
    size_t start = b->len;
    for (size_t i = 0; list != NULL && list[i] != NULL && i < LIST_MAX; i++) {
        pw_buf_append(b, list[i], strlen(list[i]) + 1);
    }
    *len = b->len - start;
}

static void
put_files(struct pw_buf *b, const struct pw_sbx_request *req, uint64_t *len)
{
    size_t start = b->len;
    for (size_t i = 0; i < req->nfiles; i++) {
        const struct pw_sbx_file *f = &req->files[i];
        uint64_t size = f->len;
        if (f->data == NULL) {
            continue; /* given by fd: in the workspace already (wsfiles.c) */
        }
        pw_buf_append(b, f->name, strlen(f->name) + 1);
        pw_buf_append(b, &size, sizeof(size));
        pw_buf_append(b, f->data, f->len);
    }
    *len = b->len - start;
}

void
pw_sbx_request_encode(const struct pw_sbx_request *req,
                      const struct pw_sbx_limits *limits, struct pw_buf *msg)
{
    struct spare_hdr h;
    memset(&h, 0, sizeof(h));
    h.limits = *limits;
    h.caps = req->caps;
    h.mask = req->imports->mask;
    h.code_len = req->code_len;
    h.has_extra = req->imports->extra != NULL;
    h.has_only = req->imports->only != NULL;
    h.session = req->session;
    h.fork = req->fork;
    size_t start = msg->len;
    pw_buf_append(msg, &h, sizeof(h));
    pw_buf_append(msg, req->code, req->code_len);
    if (req->compiled != NULL) {
        h.compiled_len = req->compiled_len;
        pw_buf_append(msg, req->compiled, req->compiled_len);
    }
    put_list(msg, req->imports->extra, &h.extra_len);
    put_list(msg, req->imports->only, &h.only_len);
    h.has_argv = req->argv != NULL;
    put_list(msg, req->argv, &h.argv_len);
    put_files(msg, req, &h.files_len);
    h.batch = req->batch;
    if ((req->batch || req->stdin_in_request) && req->stdin_len > 0) {
        h.stdin_len = req->stdin_len;
        pw_buf_append(msg, req->stdin_data, req->stdin_len);
    }
    memcpy(msg->data + start, &h, sizeof(h)); /* with the lists' lengths */
}

/* The request in one write (a pipe's buffer holds a usual one whole): a
 * spare that refuses it after reading the header cannot make the rest of
 * the send fail, and the spare wakes once. */
int
pw_sbx_request_write(int ctl, const struct pw_sbx_request *req,
                     const struct pw_sbx_limits *limits)
{
    struct pw_buf msg;
    pw_buf_init(&msg);
    pw_sbx_request_encode(req, limits, &msg);
    int rc = pw_write_all(ctl, msg.data, msg.len);
    pw_buf_free(&msg);
    return rc < 0 ? -1 : 0;
}

int
pw_sbx_spare_send(struct pw_sbx_spare *s, const struct pw_sbx_request *req,
                  const struct pw_sbx_limits *limits)
{
    int rc = pw_sbx_request_write(s->ctl, req, limits);
    if (!req->session) {
        close(s->ctl);
        s->ctl = -1;
    }
    return rc;
}
