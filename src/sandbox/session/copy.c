/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * copy.c - a session process cloning itself for fork_session (the
 * child's side; the server's is family.c).
 *
 * The request pipe brings a fork request instead of a call.  The session
 * raises its soft RLIMIT_NPROC to the hard one (session_nproc) and
 * clones itself with PW_SBX_FORK_FLAGS.  The filter stops the clone and
 * the server lets it go on because it asked for it; any other clone is a
 * refused call.  Each new process then says hello with setsid(ROLE,
 * PW_SBX_HELLO): stopped in it, it gets its pipes from the server
 * (SECCOMP_IOCTL_NOTIF_ADDFD onto fds 0-4), and the setsid makes it a
 * process group and a session of its own, so that kill(0, ...) reaches
 * no other copy.
 *
 * The first copy of a session also moves the session itself: the
 * process that served it so far is PID 1 of the PID namespace, whose end
 * would end every copy.  It clones twice (the session's new process,
 * which keeps the pipes it had, and the copy), answers, closes every fd
 * and waits as the namespace's init, running no more Python.  It is the
 * spare the session started in, so it still has the death signal its
 * checklist asked for (child.c): the server's death kills it, and with
 * it, PID 1 of the namespace, every copy.  SIGCHLD is ignored first: the
 * kernel reaps every copy that ends.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/py.h"
#include "core/util.h"
#include "sandbox/session/family.h"
#include "sandbox/os/filter.h"
#include "sandbox/run/record.h"
#include "sandbox/run/child.h"

#define RESULT_FD 3

static pid_t
clone_self(unsigned long flags)
{
    return (pid_t)syscall(SYS_clone, flags, 0UL, 0UL, 0UL, 0UL);
}

static void
set_soft_nproc(rlim_t soft)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NPROC, &rl) == 0) {
        rl.rlim_cur = soft;
        (void)setrlimit(RLIMIT_NPROC, &rl);
    }
}

/* In a new process: Python's fork handlers, the hello (the server puts
 * the pipes in place), no more clones. */
static void
hello(enum pw_sbx_copy_role role, rlim_t soft)
{
    PyOS_AfterFork_Child();
    if (syscall(SYS_setsid, (long)role, (long)PW_SBX_HELLO) < 0) {
        pw_sbx_child_end(0); /* the server did not take it */
    }
    /* Into the copy's own workspace, which the server mounted over the
     * path meanwhile (the same path: the session's is under it). */
    char cwd[4096];
    if (role == PW_SBX_COPY_NEW &&
        (getcwd(cwd, sizeof(cwd)) == NULL || chdir(cwd) < 0)) {
        pw_sbx_child_end(0);
    }
    set_soft_nproc(soft);
}

/* The namespace's init from now on: nothing but waiting. */
static PW_NORETURN void
become_init(void)
{
    /* close only: close_range is not on the allow-list.  RLIMIT_NOFILE
     * keeps the fds below it. */
    struct rlimit rl = {.rlim_cur = 1024};
    (void)getrlimit(RLIMIT_NOFILE, &rl);
    for (rlim_t fd = 0; fd < rl.rlim_cur && fd < 65536; fd++) {
        (void)close((int)fd);
    }
    for (;;) {
        (void)ppoll(NULL, 0, NULL, NULL);
    }
}

static void
answer(int made, int e)
{
    char line[192];
    int n = snprintf(line, sizeof(line),
                     "R{\"exit_status\": 0, \"children\": %d, "
                     "\"errno\": %d, \"error\": \"%s\"}\n",
                     made, e, e != 0 ? strerror(e) : "");
    if (n > 0) {
        (void)pw_write_all(RESULT_FD, line, (size_t)n);
    }
}

void
pw_sbx_copy_session(void)
{
    bool first = getpid() == 1;
    struct rlimit rl = {0};
    (void)getrlimit(RLIMIT_NPROC, &rl);
    rlim_t soft = rl.rlim_cur;
    struct sigaction ign;
    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    (void)sigaction(SIGCHLD, &ign, NULL);
    set_soft_nproc(rl.rlim_max);
    PyOS_BeforeFork();
    int made = 0;
    int e = 0;
    pid_t same = first ? clone_self(PW_SBX_FORK_FLAGS) : 0;
    if (first && same == 0) {
        hello(PW_SBX_COPY_SAME, soft);
        return;
    }
    e = same < 0 ? errno : 0;
    made += same > 0;
    unsigned long flags = pw_sbx_mountns_ws_bytes() > 0 ? PW_SBX_FORK_NS_FLAGS
                                                        : PW_SBX_FORK_FLAGS;
    pid_t copy = e == 0 ? clone_self(flags) : -1;
    if (copy == 0) {
        hello(PW_SBX_COPY_NEW, soft);
        return;
    }
    e = copy < 0 && e == 0 ? errno : e;
    made += copy > 0;
    PyOS_AfterFork_Parent();
    set_soft_nproc(soft);
    answer(made, e);
    if (first && same > 0) {
        become_init();
    }
}
