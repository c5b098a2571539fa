/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * zygote.c - the zygote process: a copy of the warm interpreter made
 * before any request, whose one job is forking spares.
 *
 * Runs are copies of the process that forks them.  If that were the
 * server, every run would inherit the server's heap, where earlier
 * requests' code, stdin and output lie in freed memory; a program that
 * gets past the interpreter layers could read them.  So the server forks
 * this process once, when the interpreter, the profiles' modules, the
 * filter and the probes are ready and no request has been read, and from
 * then on only asks it for spares.  Its only input is the capabilities a
 * spare is prepared for; a request's data goes from the server straight
 * to the spare's pipes, never through here.
 *
 * Each spare is forked with clone(CLONE_PARENT): it is the server's child,
 * so the server waits for it and takes the verdict from its exit status
 * and resource usage (wait4), not from anything the run writes.  With
 * CLONE_NEWPID it is PID 1 of a PID namespace of its own: it sees no
 * other process.  The answer carries the spare's pid and scratch path and
 * the server's ends of its pipes (SCM_RIGHTS); the zygote closes its
 * copies at once.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/py.h"
#include "sandbox/run/folios.h"
#include "sandbox/interp/guard.h"
#include "sandbox/interp/hookcheck.h"
#include "sandbox/run/record.h"
#include "sandbox/run/pipes.h"
#include "sandbox/run/scratch.h"
#include "sandbox/run/spare.h"
#include "sandbox/run/zygote.h"

struct zy_ask {
    uint32_t caps;
    uint32_t pace; /* enum pw_sbx_pace: how the spare warms up */
};

/* An answer: a spare, or (PID 0) the report of a zygote that warmed up
 * in the background, sent once before any spare. */
struct zy_answer {
    int32_t pid; /* the spare, -errno if it could not be forked, or 0 */
    uint32_t caps;
    int64_t as_base; /* the report's; -1: the imports failed */
    /* The spare's scratch path; the report's missing modules, or why the
     * imports failed. */
    char text[PATH_MAX];
};

/* The spare's fds in an answer: request pipe, stdin, stdout, stderr,
 * result. */
#define ANSWER_FDS 5

/* fork(), with the server as the new process's parent and, if NEWPID, in
 * a new PID namespace.  glibc has no fork with flags: this is the raw
 * system call with fork's semantics (no new stack, the child returns 0).
 * The zygote is single-threaded, so no lock can be held across it; the
 * interpreter's own fork hooks are run around it by the caller. */
static pid_t
clone_spare(bool newpid)
{
    unsigned long flags = CLONE_PARENT | SIGCHLD;
    if (newpid) {
        flags |= CLONE_NEWPID;
    }
    return (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
}

void
pw_sbx_pidns_probe(struct pw_zygote *z)
{
    pid_t pid = (pid_t)syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, NULL, NULL,
                               NULL, NULL);
    if (pid == 0) {
        _exit(getpid() == 1 ? 0 : 1);
    }
    int st = 0;
    if (pid < 0) {
        snprintf(z->pidns_why, sizeof(z->pidns_why), "clone(NEWPID): %s",
                 strerror(errno));
        return;
    }
    z->pidns = PW_RETRY(waitpid(pid, &st, 0)) == pid && WIFEXITED(st) &&
               WEXITSTATUS(st) == 0;
    snprintf(z->pidns_why, sizeof(z->pidns_why), "%s",
             z->pidns ? "each run is PID 1 of its own PID namespace"
                      : "a new PID namespace did not work");
}

/* Import the profiles' modules here (in the process spares are forked
 * from), and take the address-space size a run's memory limit is added
 * to. */
int
pw_sbx_zygote_warm(struct pw_zygote *z, struct pw_error *err)
{
    /* In the background, in the zygote process: the server answers
     * meanwhile (it loads its own guard when it first needs one). */
    if (pw_sbx_guard_init(err) < 0 ||
        pw_sbx_guard_preload(z->profiles, z->enabled, z->only, &z->missing,
                             err) < 0) {
        return -1;
    }
    z->as_base = pw_sbx_vm_size();
    z->warming = false;
    return 0;
}

static void
answer(int sock, const struct zy_answer *a, const int *fds, size_t nfds)
{
    if (pw_send_fds(sock, a, sizeof(*a), fds, nfds) < 0) {
        _exit(0); /* the server is gone */
    }
}

static void
close_all(int *fds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (fds[i] >= 0) {
            close(fds[i]);
            fds[i] = -1;
        }
    }
}

/* Fork one spare prepared for CAPS, warming up as PACE says, and send it
 * to the server. */
static void
fork_spare(const struct pw_zygote *z, int sock, unsigned caps,
           enum pw_sbx_pace pace)
{
    struct pw_error err = {0};
    struct zy_answer a;
    memset(&a, 0, sizeof(a));
    a.caps = caps;
    int p[4][2];
    int ctl[2] = {-1, -1};
    char *scratch = pw_sbx_scratch_new(z, caps, &err);
    if (scratch == NULL || strlen(scratch) >= sizeof(a.text) ||
        pw_sbx_pipes_new(p, &err) < 0 || pipe2(ctl, O_CLOEXEC) < 0) {
        a.pid = -EIO;
        pw_sbx_pipes_close(p, 0);
        pw_sbx_pipes_close(p, 1);
        close_all(ctl, 2);
        pw_sbx_scratch_drop(z, scratch);
        answer(sock, &a, NULL, 0);
        return;
    }
    PyOS_BeforeFork();
    pid_t pid = clone_spare(z->pidns);
    if (pid == 0) {
        pw_sbx_spare_main(z, p, ctl[0], scratch, caps, pace);
    }
    int saved = errno;
    PyOS_AfterFork_Parent();
    int fds[ANSWER_FDS] = {ctl[1], p[0][1], p[1][0], p[2][0], p[3][0]};
    int child[ANSWER_FDS] = {ctl[0], p[0][0], p[1][1], p[2][1], p[3][1]};
    close_all(child, ANSWER_FDS);
    a.pid = pid > 0 ? pid : -saved;
    memcpy(a.text, scratch, strlen(scratch) + 1);
    answer(sock, &a, fds, pid > 0 ? ANSWER_FDS : 0);
    close_all(fds, ANSWER_FDS);
    if (pid < 0) {
        pw_sbx_scratch_drop(z, scratch);
    } else {
        free(scratch); /* the server's now */
    }
}

/* In the zygote process of pw_zygote_new_warming: the imports, then the
 * report.  A zygote that could not import what it must ends. */
static void
warm_up(struct pw_zygote *z, int sock)
{
    struct pw_error err = {0};
    struct zy_answer a;
    memset(&a, 0, sizeof(a));
    /* The imports put thread counts and a plotting backend in the
     * environment: wiped again, as the server's was before the fork. */
    int rc = pw_sbx_zygote_warm(z, &err);
    if (rc == 0) {
        rc = pw_sbx_scrub_env(&err);
    }
    /* Warmed in its owner, a zygote starts as a fork's child of the warm
     * interpreter: the libraries' fork handlers have run in it (one drops
     * matplotlib's cached fonts and their open files) before any spare is
     * forked, and a spare's own run of them finds nothing to close.  This
     * process is single-threaded, so it is in the state of such a child:
     * the same handlers are run here. */
    PyOS_BeforeFork();
    PyOS_AfterFork_Child();
    a.as_base = rc == 0 ? z->as_base : -1;
    snprintf(a.text, sizeof(a.text), "%s",
             rc < 0               ? err.message
             : z->missing != NULL ? z->missing
                                  : "");
    answer(sock, &a, NULL, 0);
    if (rc < 0) {
        _exit(1);
    }
}

/* A server's zygote forks spares for as long as it serves: its memory is
 * moved into large folios once, where the kernel has them (folios.c). */
static void
regroup(const struct pw_zygote *z)
{
    char why[160];
    if (!z->background || !pw_sbx_folios_available(why, sizeof(why))) {
        return;
    }
    if (pw_sbx_folios_regroup() < 0) {
        pw_warn("the zygote's memory stays in pages: %s", strerror(errno));
    }
}

static PW_NORETURN void
zygote_main(struct pw_zygote *z, int sock, pid_t server)
{
    PyOS_AfterFork_Child();
    /* SIGKILL at the server's death, then the server checked to be the
     * parent still.  setpgid into its own group changes nothing but
     * takes the kernel's task-list lock, under which a dead parent's
     * children are handed over and their death signals read: after it,
     * either getppid shows the handover or the signal was seen. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) {
        _exit(0);
    }
    pid_t group = getpgrp();
    if (group > 0) {
        (void)setpgid(0, group);
    }
    if (getppid() != server) {
        _exit(0);
    }
    (void)prctl(PR_SET_NAME, "pyward-zygote");
    /* Ctrl-C in a terminal is for the run (pyward run forwards it), not
     * for the zygote in the same process group. */
    (void)signal(SIGINT, SIG_IGN);
    /* stdin and stdout are the server's (its protocol channel): none of
     * the zygote's business.  stderr stays for pw_warn. */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0) {
        _exit(1);
    }
    close(null);
    if (z->warming) {
        warm_up(z, sock);
    }
    regroup(z);
    for (;;) {
        struct zy_ask ask;
        ssize_t n = recv(sock, &ask, sizeof(ask), 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n != (ssize_t)sizeof(ask)) {
            _exit(0); /* EOF: the server is done */
        }
        fork_spare(z, sock, ask.caps, (enum pw_sbx_pace)ask.pace);
    }
}

int
pw_sbx_zygote_start(struct pw_zygote *z, struct pw_error *err)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
        return pw_fail_errno(err, PW_ERR_SANDBOX, "socketpair");
    }
    pid_t server = getpid();
    PyOS_BeforeFork();
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        /* The other zygote ends when the server closes its socket. */
        if (z->beside_sock >= 0) {
            close(z->beside_sock);
        }
        zygote_main(z, sv[1], server);
    }
    int saved = errno;
    PyOS_AfterFork_Parent();
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        errno = saved;
        return pw_fail_errno(err, PW_ERR_SANDBOX, "fork (zygote)");
    }
    z->zpid = pid;
    z->zsock = sv[0];
    /* Reading a run's memory after it (its audit hook) is what reading
     * the zygote's is: the same process tree, user and namespaces. */
    z->hookcheck = pw_sbx_hookcheck_probe(pid) == 0;
    snprintf(z->hookcheck_why, sizeof(z->hookcheck_why), "%s%s",
             z->hookcheck ? "the server reads each run's audit hook after "
                            "the run and reports a hook left altered"
                          : "the server cannot read its runs' memory: ",
             z->hookcheck ? "" : strerror(errno));
    return 0;
}

void
pw_sbx_zygote_stop(struct pw_zygote *z)
{
    if (z->zsock >= 0) {
        close(z->zsock);
        z->zsock = -1;
    }
    if (z->zpid > 0) {
        (void)PW_RETRY(waitpid(z->zpid, NULL, 0));
        z->zpid = 0;
    }
}

/* The gap between runs from which a client counts as pausing. */
#define PACE_PAUSE_S 0.25
/* The idle time before a run under which it came back to back. */
#define PACE_HURRY_S 0.005

enum pw_sbx_pace
pw_sbx_pace(const struct pw_zygote *z)
{
    int n = z->nstarts;
    if (n >= 2 && z->idle[n - 1] < PACE_HURRY_S &&
        z->idle[n - 2] < PACE_HURRY_S) {
        return PW_SBX_PACE_HURRIED;
    }
    for (int i = 1; i < n; i++) {
        if (z->starts[i] - z->starts[i - 1] < PACE_PAUSE_S) {
            return PW_SBX_PACE_STEADY;
        }
    }
    return PW_SBX_PACE_PAUSES;
}

int
pw_sbx_zygote_ask(struct pw_zygote *z, unsigned caps)
{
    struct zy_ask ask = {.caps = caps, .pace = pw_sbx_pace(z)};
    if (z->zsock < 0 || z->nasked >= PW_SBX_ASKED_MAX ||
        PW_RETRY(send(z->zsock, &ask, sizeof(ask), MSG_NOSIGNAL)) !=
            (long)sizeof(ask)) {
        return -1;
    }
    z->asked[z->nasked++] = caps;
    return 0;
}

/* The report of a zygote warmed in the background (A): 1, or -1 if its
 * imports failed (it ends). */
static int
take_report(struct pw_zygote *z, struct zy_answer *a)
{
    a->text[sizeof(a->text) - 1] = '\0';
    z->warming = false;
    if (a->as_base < 0) {
        snprintf(z->error, sizeof(z->error),
                 "the zygote could not import the profiles' modules: %.180s",
                 a->text);
        pw_warn("%s", z->error);
        close(z->zsock);
        z->zsock = -1;
        return -1;
    }
    z->as_base = a->as_base;
    free(z->missing);
    z->missing = a->text[0] != '\0' ? pw_xstrdup(a->text) : NULL;
    /* The server's own guard (for the programs it compiles), loaded now
     * rather than before it answered its first request; a failure is
     * said again by the first call that needs it. */
    struct pw_error err = {0};
    if (pw_sbx_guard_init(&err) < 0) {
        pw_warn("the guard: %s", err.message);
    }
    return 1;
}

/* The zygote process ended (or answered nonsense): its socket closed,
 * with the NFDS FDS that came, and -1. */
static int
zygote_gone(struct pw_zygote *z, int *fds, size_t nfds)
{
    close_all(fds, nfds);
    z->nasked = 0;
    pw_warn("the zygote process is gone: runs are refused");
    close(z->zsock);
    z->zsock = -1;
    return -1;
}

int
pw_sbx_zygote_receive(struct pw_zygote *z, bool block,
                      struct pw_sbx_spare **out)
{
    struct zy_answer a;
    int fds[ANSWER_FDS];
    size_t nfds = 0;
    *out = NULL;
    if (z->zsock < 0) {
        return -1;
    }
    if (z->nasked == 0 && !z->warming) {
        /* Nothing asked, so nothing to read but the end of a zygote that
         * died: seen now, its socket leaves the server's poll (which would
         * otherwise wake on it at once, again and again). */
        char c;
        return recv(z->zsock, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0
                   ? zygote_gone(z, NULL, 0)
                   : 0;
    }
    ssize_t n = PW_RETRY(pw_recv_fds(z->zsock, &a, sizeof(a), fds, ANSWER_FDS,
                                     &nfds, block ? 0 : MSG_DONTWAIT));
    if (n < 0 && !block && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return 0;
    }
    if (n != (ssize_t)sizeof(a) || (a.pid > 0 && nfds != ANSWER_FDS) ||
        (a.pid == 0 && !z->warming)) {
        return zygote_gone(z, fds, nfds);
    }
    if (a.pid == 0) {
        return take_report(z, &a);
    }
    z->nasked--;
    memmove(z->asked, z->asked + 1, (size_t)z->nasked * sizeof(z->asked[0]));
    if (a.pid < 0) {
        pw_warn("the zygote could not fork a spare: %s", strerror(-a.pid));
        z->spare_fails++;
        return 1;
    }
    z->spare_fails = 0;
    a.text[sizeof(a.text) - 1] = '\0';
    *out = pw_sbx_spare_adopt(a.pid, a.caps, fds, pw_xstrdup(a.text));
    return 1;
}
