/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * child.c - the fixed checklist of a forked child (isolate style).
 *
 * Each step fails closed: its reason goes to the parent as an "E" line on
 * the result fd and the child _exits.  Order: process group, network
 * namespace, pipes on 0/1/2/3 (a spare's request pipe on 4), close every
 * other fd, environment, fixed rlimits, (mount namespace here when root
 * has no user namespaces) uid drop, user/IPC/UTS namespaces, mount
 * namespace, scratch cwd, no_new_privs, landlock, SIGKILL at the
 * server's death asked again (the uid drop cleared it) with the server
 * checked to be alive, default signal dispositions, seccomp and its
 * listener handed to the server -- all of
 * this before a spare's request -- then the request's CPU and AS
 * rlimits, interpreter layers, audit hook, the "G" record (everything
 * after it on the result channel is the program's), run (no user code
 * before every layer is in place), close the pipes, _exit with the
 * program's exit status (never exit: no atexit handlers, no
 * LeakSanitizer under the filter).
 *
 * What the server believes of a run comes from the kernel: the exit
 * status, the resource usage, the refused system call (the listener).
 * Records the child writes before "G" come from this checklist, before
 * any user code ran; those after it are program output.
 *
 * The request's rlimits are set under the filter: rules/seccomp.json
 * allows prlimit64 on the process itself (pid 0).  That is safe for the
 * program too: an unprivileged process can only lower a hard limit or
 * move a soft one below it (raising a hard limit needs CAP_SYS_RESOURCE
 * in the initial user namespace, which the child never has: the uid drop
 * or the zygote's own uid, then a user namespace of its own), and the
 * audit hook refuses resource.setrlimit/prlimit to the program anyway.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/py.h"
#include "sandbox/os/checklist.h"
#include "sandbox/interp/audit.h"
#include "sandbox/interp/guard.h"
#include "sandbox/run/record.h"
#include "sandbox/session/record.h"
#include "sandbox/run/child.h"
#include "sandbox/os/limits.h"
#include "sandbox/run/output.h"
#include "sandbox/os/workspace.h"

#define RESULT_FD   3
#define REQUEST_FD  4 /* a spare's request pipe */
#define EXIT_SETUP  125
#define EXIT_SIGSYS 159

static int report_fd = -1;

static long long as_base; /* the child's mapped size when the request came */
/* Its /proc/self/statm, opened while /proc is reachable and read again
 * when the request comes (the warm-up has grown the process since);
 * closed before any of the request's code runs. */
static int statm_fd = -1;
static struct rusage before; /* usage when the request's part began */
/* Its /proc/self/stat in the host's /proc, opened before the namespace
 * steps: its parent's pid as the server knows it (see arm_death). */
static int self_stat_fd = -1;

#define fail pw_sbx_child_fail

/* The filter is in place but its listener not handed over yet: an
 * exit_group would wait for a listener nobody reads. */
static bool listener_kept;

void
pw_sbx_child_fail(const char *step, int e)
{
    char line[256];
    int n = snprintf(line, sizeof(line), "E%s: %s\n", step,
                     e != 0 ? strerror(e) : "failed");
    if (n > 0 && report_fd >= 0) {
        ssize_t w = write(report_fd, line, (size_t)n);
        (void)w;
    }
    if (listener_kept) {
        (void)syscall(SYS_exit, EXIT_SETUP); /* single-threaded here */
    }
    _exit(EXIT_SETUP);
}

/* The pipes on 0-3 and a spare's request pipe on 4; returns the first
 * fd that is not one of them. */
static int
setup_fds(const struct pw_sbx_child *c)
{
    int src[5] = {c->fd_in, c->fd_out, c->fd_err, c->fd_res, c->fd_ctl};
    int tmp[5] = {-1, -1, -1, -1, -1};
    int n = 5;
    for (int i = 0; i < n; i++) {
        tmp[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 10);
        if (tmp[i] < 0) {
            fail("dup", errno);
        }
    }
    report_fd = tmp[3];
    for (int i = 0; i < n; i++) {
        if (dup2(tmp[i], i) < 0) {
            fail("dup2", errno);
        }
    }
    report_fd = RESULT_FD;
    return n;
}

static void
close_others(int from)
{
    if (syscall(SYS_close_range, (unsigned)from, ~0U, 0U) == 0) {
        return;
    }
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = from; fd < (max > 0 ? max : 1024); fd++) {
        (void)close((int)fd);
    }
}

/* The parent's pid in the stat line FD holds, or -1. */
static pid_t
parent_of(int fd)
{
    char buf[512];
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    if (n <= 0) {
        return -1;
    }
    buf[n] = '\0';
    /* "PID (COMM) STATE PPID ...": the name may hold anything. */
    const char *p = strrchr(buf, ')');
    char state;
    int ppid;
    return p != NULL && sscanf(p + 1, " %c %d", &state, &ppid) == 2
               ? (pid_t)ppid
               : -1;
}

/* The server's death must end this process, and with it, PID 1 of its
 * PID namespace, every process in it (a session's copies and their
 * init).  The spare asked for SIGKILL at its parent's death before
 * anything else, but the uid drop cleared that: a change of the
 * effective ids does, and so would a set-id execve (there is none).
 * Asked again once no step is left that changes them, and then the
 * parent must still be the server: had it died meanwhile, the child
 * would have been handed to another process, whose death is the one the
 * signal would wait for.  getppid() says 0 when the parent is outside
 * the PID namespace; the host's /proc, opened before the namespaces,
 * names it with the server's pid. */
static void
arm_death(const struct pw_sbx_child *c)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) {
        fail("PR_SET_PDEATHSIG", errno);
    }
    /* The kernel hands a dead parent's children over, and reads their
     * death signals, under its task-list lock; setpgid takes that lock
     * whether it fails or not (it fails: this process has led its
     * session since step 1).  After it, either the handover shows below
     * or the signal asked for above was seen by it. */
    (void)setpgid(0, 0);
    pid_t parent = parent_of(self_stat_fd);
    (void)close(self_stat_fd);
    self_stat_fd = -1;
    if (parent != c->z->owner) {
        fail("the server is gone", ESRCH);
    }
}

static void
os_layers(const struct pw_sbx_child *c, int first_free)
{
    const struct pw_zygote *z = c->z;
    bool net = (c->os_caps & PW_CAP_NETWORK) != 0;
    enum pw_sbx_ws ws = pw_sbx_workspace_kind(z, c->os_caps);
    bool tmpfs = ws == PW_SBX_WS_TMPFS;
    const char *what = "rlimit";
    /* The tmpfs's size is part of what the spare is prepared for: its
     * share of the memory limit (the key's class). */
    pw_sbx_mountns_workspace(
        ws, tmpfs ? pw_sbx_workspace_key_bytes(z, c->os_caps) : 0);
    close_others(pw_sbx_mountns_keep(&z->layers.mounts, first_free));
    if (clearenv() != 0) {
        fail("clearenv", 0);
    }
    /* The child's own size now (the zygote may have grown since it
     * started); read while /proc is still reachable. */
    statm_fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    self_stat_fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (self_stat_fd < 0) {
        fail("/proc/self/stat", errno);
    }
    long long base = pw_sbx_vm_size_at(statm_fd);
    as_base = base > 0 ? base : z->as_base;
    if (pw_sbx_set_fixed_rlimits(&z->policy, &what) < 0) {
        fail(what, errno);
    }
    if (pw_sbx_checklist_ns(&z->layers, c->scratch, net, &what) < 0) {
        fail(what, errno);
    }
    if (pw_sbx_set_nproc(z->policy.nproc, z->policy.session_nproc) < 0) {
        fail("RLIMIT_NPROC", errno);
    }
    if (chdir(c->scratch) < 0) {
        fail("chdir(scratch)", errno);
    }

    if (tmpfs && pw_sbx_workspace_send(RESULT_FD) < 0) {
        fail("workspace fd", errno);
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
        fail("no_new_privs", errno);
    }
    if (pw_sbx_landlock(&z->layers, c->scratch, c->os_caps) < 0) {
        fail("landlock", errno);
    }
    arm_death(c);
}

static void
signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    for (int s = 1; s < 32; s++) {
        if (s != SIGKILL && s != SIGSTOP) {
            (void)sigaction(s, &sa, NULL);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) < 0) {
        fail("sigprocmask", errno);
    }
}

void
pw_sbx_child_setup(const struct pw_sbx_child *c)
{
    bool net = (c->os_caps & PW_CAP_NETWORK) != 0;
    report_fd = c->fd_res;
    if (setsid() < 0) {
        fail("setsid", errno);
    }
    /* Before the fds move onto 0-4: the held namespace's fd may be one. */
    if (pw_sbx_enter_netns(&c->z->layers, net) < 0) {
        fail("setns(network)", errno);
    }
    pw_sbx_mountns_hold(&c->z->layers.mounts);
    os_layers(c, setup_fds(c));
    signals();
    int listener =
        pw_sbx_filter_install(pw_sbx_filter_prog(c->z->filter, net));
    if (listener < 0) {
        fail("seccomp", errno);
    }
    /* The server must hold the only copy before any user code runs: a
     * listener the program could read would let it answer for itself. */
    int rc = pw_send_fds(RESULT_FD, "L\n", 2, &listener, 1);
    int e = errno;
    close(listener);
    if (rc < 0) {
        fail("seccomp listener", e);
    }
    listener_kept = false;
    /* The last fd sent: now the run's own limit (see pw_sbx_set_nofile). */
    if (pw_sbx_set_nofile(&c->z->policy) < 0) {
        fail("RLIMIT_NOFILE", errno);
    }
}

static double
cpu_of(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
           (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

void
pw_sbx_child_limits(const struct pw_sbx_child *c,
                    const struct pw_sbx_limits *lim)
{
    const char *what = "rlimit";
    if (getrusage(RUSAGE_SELF, &before) < 0) {
        fail("getrusage", errno);
    }
    /* What the warm-up mapped is the spare's, not the run's allowance. */
    long long now = pw_sbx_vm_size_at(statm_fd);
    as_base = now > as_base ? now : as_base;
    if (statm_fd >= 0) {
        (void)close(statm_fd);
        statm_fd = -1;
    }
    /* Only a session may ever clone itself. */
    if (!c->session &&
        pw_sbx_set_nproc(c->z->policy.nproc, c->z->policy.nproc) < 0) {
        fail("RLIMIT_NPROC", errno);
    }
    if (pw_sbx_set_run_rlimits(lim, as_base, cpu_of(&before), &what) < 0) {
        fail(what, errno);
    }
}

/* Close the pipes so the server sees EOF at once, then end with the
 * program's exit status. */
static PW_NORETURN void
end_run(int status)
{
    for (int fd = 0; fd <= RESULT_FD; fd++) {
        (void)close(fd);
    }
    _exit(status);
}

void
pw_sbx_child_ready(const struct pw_sbx_child *c)
{
    if (pw_sbx_guard_ready(c->scratch) < 0) {
        fail("interpreter layers", 0);
    }
}

void
pw_sbx_child_begin(const struct pw_sbx_child *c)
{
    struct pw_sbx_guard_run g = {.imports = c->req->imports,
                                 .caps = c->req->caps,
                                 .scratch = c->scratch,
                                 .result_fd = RESULT_FD,
                                 .argv = c->req->argv};
    if (pw_sbx_guard_prepare(&g, c->compiled) < 0) {
        fail("interpreter layers", 0);
    }
    if (c->session) {
        pw_sbx_audit_protect(REQUEST_FD);
    }
    if (c->before_hook != NULL && c->before_hook() != 0) {
        fail("interpreter layers", 0);
    }
    if (pw_sbx_guard_arm() < 0) {
        fail("audit hook", 0);
    }
    /* The thread's own CPU clock is exact (the server's reading of a
     * running process lags by up to a scheduler tick): the run's CPU is
     * counted from here. */
    struct timespec ts;
    char rec[32];
    int n = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0
                ? snprintf(rec, sizeof(rec), "G %lld\n",
                           (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec)
                : snprintf(rec, sizeof(rec), "G\n");
    if (write(RESULT_FD, rec, (size_t)n) != n) {
        fail("result channel", errno);
    }
}

void
pw_sbx_child_exec(const struct pw_sbx_child *c)
{
    pw_sbx_child_begin(c);
    end_run(pw_sbx_guard_execute());
}

void
pw_sbx_child_end(int status)
{
    end_run(status);
}
