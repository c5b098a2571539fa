/*
 * sbx-child.c - the fixed checklist of a forked child (isolate style).
 *
 * Each step fails closed: its reason goes to the parent as an "E" line on
 * the result fd and the child _exits.  Order: process group, pipes on
 * 0/1/2/3, network namespace, close every other fd, environment, rlimits,
 * (mount namespace here when root has no user namespaces) uid drop,
 * user/IPC/UTS namespaces, mount namespace, scratch cwd, no_new_privs,
 * landlock, SIGSYS reporter, interpreter layers, audit hook, seccomp LAST,
 * run, _exit (never exit: no atexit handlers, no LeakSanitizer under the
 * filter).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pyembed.h"
#include "sbx-guard.h"
#include "sbx-internal.h"
#include "sbx-limits.h"
#include "sbx-output.h"

#define RESULT_FD   3
#define EXIT_SETUP  125
#define EXIT_SIGSYS 159

static int report_fd = -1;

static PW_NORETURN void
fail(const char *step, int e)
{
    char line[256];
    int n = snprintf(line, sizeof(line), "E%s: %s\n", step,
                     e != 0 ? strerror(e) : "failed");
    if (n > 0 && report_fd >= 0) {
        ssize_t w = write(report_fd, line, (size_t)n);
        (void)w;
    }
    _exit(EXIT_SETUP);
}

static void
on_sigsys(int sig, siginfo_t *si, void *uctx)
{
    char line[24];
    int nr = si->si_syscall;
    int n = 0;
    char digits[12];
    int k = 0;
    line[n++] = 'S';
    do {
        digits[k++] = (char)('0' + nr % 10);
        nr /= 10;
    } while (nr > 0 && k < 11);
    while (k > 0) {
        line[n++] = digits[--k];
    }
    line[n++] = '\n';
    ssize_t w = write(RESULT_FD, line, (size_t)n);
    (void)w;
    _exit(EXIT_SIGSYS);
}

static void
setup_fds(const struct pw_sbx_child *c)
{
    int src[4] = {c->fd_in, c->fd_out, c->fd_err, c->fd_res};
    int tmp[4];
    for (int i = 0; i < 4; i++) {
        tmp[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 10);
        if (tmp[i] < 0) {
            fail("dup", errno);
        }
    }
    report_fd = tmp[3];
    for (int i = 0; i < 4; i++) {
        if (dup2(tmp[i], i) < 0) {
            fail("dup2", errno);
        }
    }
    report_fd = RESULT_FD;
}

static void
close_others(void)
{
    if (syscall(SYS_close_range, 4U, ~0U, 0U) == 0) {
        return;
    }
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 4; fd < (max > 0 ? max : 1024); fd++) {
        (void)close((int)fd);
    }
}

static void
os_layers(const struct pw_sbx_child *c)
{
    const struct pw_zygote *z = c->z;
    bool net = (c->req->caps & PW_CAP_NETWORK) != 0;
    bool tmpfs = pw_sbx_workspace_tmpfs(z, c->req->caps);
    const char *what = "rlimit";
    pw_sbx_mountns_workspace(tmpfs);
    if (pw_sbx_enter_netns(&z->layers, net) < 0) {
        fail("setns(network)", errno);
    }
    close_others();
    if (clearenv() != 0) {
        fail("clearenv", 0);
    }
    /* The zygote's own size now (it may have grown since it started). */
    long long base = pw_sbx_vm_size();
    if (pw_sbx_set_rlimits(&z->policy, &c->req->limits,
                           base > 0 ? base : z->as_base, &what) < 0) {
        fail(what, errno);
    }
    if (pw_sbx_mountns_early(&z->layers.mounts, c->scratch, &what) < 0 ||
        pw_sbx_drop_uid(&z->layers, &what) < 0) {
        fail(what, errno);
    }
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (pw_sbx_unshare(&z->layers, net) < 0) {
        fail("unshare(user, ipc, uts)", errno);
    }
    if (pw_sbx_mountns_late(&z->layers.mounts, c->scratch, uid, gid, &what) <
        0) {
        fail(what, errno);
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
    if (pw_sbx_landlock(&z->layers, c->scratch, c->req->caps) < 0) {
        fail("landlock", errno);
    }
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
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    if (sigaction(SIGSYS, &sa, NULL) < 0) {
        fail("sigaction(SIGSYS)", errno);
    }
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) < 0) {
        fail("sigprocmask", errno);
    }
}

void
pw_sbx_child_main(const struct pw_sbx_child *c)
{
    report_fd = c->fd_res;
    if (setsid() < 0) {
        fail("setsid", errno);
    }
    setup_fds(c);
    os_layers(c);
    signals();
    struct pw_sbx_guard_run g = {.imports = c->req->imports,
                                 .caps = c->req->caps,
                                 .scratch = c->scratch,
                                 .result_fd = RESULT_FD};
    if (pw_sbx_guard_prepare(&g, c->compiled) < 0) {
        fail("interpreter layers", 0);
    }
    if (pw_sbx_guard_arm() < 0) {
        fail("audit hook", 0);
    }
    bool net = (c->req->caps & PW_CAP_NETWORK) != 0;
    if (pw_sbx_filter_install(pw_sbx_filter_prog(c->z->filter, net)) < 0) {
        fail("seccomp", errno);
    }
    int rc = pw_sbx_guard_execute();
    _exit(rc < 0 ? EXIT_SETUP : 0);
}
