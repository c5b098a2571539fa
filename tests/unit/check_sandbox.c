/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_sandbox.c - the executor's C API: the seccomp filter on its own,
 * the path policy, runs through the zygote (results, stdin through the
 * poll loop, limits, cancel, concurrent runs), the run queue (its turns
 * between clients and groups, a group freed with its runs in flight),
 * and no fd, child or scratch dir left behind after 200 runs; the mount
 * namespace step on its own (planted host files invisible, / read-only).
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rules.h"
#include "core/py.h"
#include "sandbox/sandbox.h"
#include "sandbox/interp/audit.h"
#include "sandbox/session/family.h"
#include "sandbox/os/filter.h"
#include "sandbox/session/gate.h"
#include "sandbox/interp/guard.h"
#include "sandbox/interp/hookcheck.h"
#include "sandbox/run/record.h"
#include "sandbox/run/spare.h"
#include "sandbox/os/checklist.h"
#include "sandbox/os/layers.h"
#include "sandbox/os/mountns.h"
#include "sandbox/os/workspace.h"
#include "validator/blob.h"
#include "grade/queue.h"

#include <marshal.h>

static struct pw_profiles *profiles;
static struct pw_zygote *zygote;
static struct pw_sbx_filter *filter;
static struct pw_importset imports;

/* --- the seccomp filter, installed in a plain forked child ------------ */

/* The child's end of SV gets the filter's listener, as the checklist
 * hands it to the server; the parent reads the refused call from it. */
static int
install_and_hand_over(int sock, bool network)
{
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
        return -1;
    }
    int listener = pw_sbx_filter_install(pw_sbx_filter_prog(filter, network));
    if (listener < 0 || dup2(sock, 3) < 0 ||
        pw_send_fds(3, "L", 1, &listener, 1) < 0) {
        return -1;
    }
    close(listener);
    return 0;
}

/* The refused call the listener of the child behind SOCK reports within
 * a second (the child is killed then), or -1 if it reports none. */
static int
refused_call(int sock, pid_t pid)
{
    char tag;
    int fd = -1;
    size_t got = 0;
    if (pw_recv_fds(sock, &tag, 1, &fd, 1, &got, 0) != 1 || got != 1) {
        return -1;
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    struct pw_sbx_notice n;
    int nr = -1;
    if (poll(&p, 1, 1000) == 1 && (p.revents & POLLIN) &&
        pw_sbx_notify_take(fd, &n) == 0) {
        /* exit_group is reported too (the server learns the exit status
         * that way): let it go. */
        if (n.nr == SYS_exit_group) {
            ck_assert_int_eq(pw_sbx_notify_let_exit(fd, &n), 0);
        } else {
            nr = n.nr;
            kill(pid, SIGKILL);
        }
    }
    close(fd);
    return nr;
}

/* Returns SIGSYS if the call was refused (the listener reported it and
 * the child was killed), another signal that killed the child, 0 if it
 * exited 0, or -errno the call returned. */
static int
in_filtered_child(bool network, long nr, long a0, long a1, long a2)
{
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(sv[0]);
        if (install_and_hand_over(sv[1], network) < 0) {
            _exit(99);
        }
        long rc = syscall(nr, a0, a1, a2, 0, 0, 0);
        _exit(rc < 0 ? (errno & 0x7f) : 0);
    }
    close(sv[1]);
    int refused = refused_call(sv[0], pid);
    close(sv[0]);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    if (refused >= 0) {
        ck_assert_int_eq(refused, nr);
        return SIGSYS;
    }
    if (WIFSIGNALED(st)) {
        return WTERMSIG(st);
    }
    ck_assert_int_ne(WEXITSTATUS(st), 99);
    return -WEXITSTATUS(st);
}

START_TEST(filter_refuses_escapes)
{
    static const long calls[][4] = {
        {SYS_socket, 1 /* AF_UNIX */, 1, 0},
        {SYS_socket, 2 /* AF_INET */, 1, 0},
        {SYS_socket, 40 /* AF_VSOCK */, 1, 0},
        {SYS_ptrace, 0, 0, 0},
        {SYS_execve, 0, 0, 0},
        {SYS_execveat, 0, 0, 0},
        {SYS_fork, 0, 0, 0},
        {SYS_vfork, 0, 0, 0},
        {SYS_clone, SIGCHLD, 0, 0},
        {SYS_io_uring_setup, 1, 0, 0},
        {SYS_keyctl, 0, 0, 0},
        {SYS_bpf, 0, 0, 0},
        {SYS_perf_event_open, 0, 0, 0},
        {SYS_userfaultfd, 0, 0, 0},
        {SYS_personality, 0, 0, 0},
        {SYS_process_vm_readv, 1, 0, 0},
        {SYS_process_vm_writev, 1, 0, 0},
        {SYS_mount, 0, 0, 0},
        {SYS_setns, 0, 0, 0},
        {SYS_unshare, 0, 0, 0},
        {SYS_kill, 1, 0, 0},
        {SYS_tgkill, 1, 1, 0},
        {SYS_chroot, 0, 0, 0},
        {SYS_setuid, 0, 0, 0},
        {SYS_socketpair, 1, 1, 0},
    };
    for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
        int got = in_filtered_child(false, calls[i][0], calls[i][1],
                                    calls[i][2], calls[i][3]);
        ck_assert_msg(got == SIGSYS, "syscall %ld not refused (%d)",
                      calls[i][0], got);
    }
}
END_TEST

START_TEST(filter_soft_denials_and_allowed)
{
    ck_assert_int_eq(in_filtered_child(false, SYS_clone3, 0, 0, 0), -ENOSYS);
    ck_assert_int_eq(in_filtered_child(false, SYS_getpid, 0, 0, 0), 0);
    ck_assert_int_eq(in_filtered_child(false, SYS_kill, 0, 0, 0), 0);
    /* Network runs may open AF_INET sockets, still no AF_UNIX. */
    ck_assert_int_eq(in_filtered_child(true, SYS_socket, 2, 1, 0), 0);
    ck_assert_int_eq(in_filtered_child(true, SYS_socket, 1, 1, 0), SIGSYS);
    /* Socket timeouts need FIONBIO (network runs only): EBADF, not
     * ENOTTY, says the filter let it through. */
    int on = 1;
    ck_assert_int_eq(
        in_filtered_child(true, SYS_ioctl, -1, FIONBIO, (long)&on), -EBADF);
    ck_assert_int_eq(
        in_filtered_child(false, SYS_ioctl, -1, FIONBIO, (long)&on), -ENOTTY);
    ck_assert_str_eq(pw_sbx_syscall_name(SYS_ptrace), "ptrace");
}
END_TEST

/* Calls that take a pid work on the process itself (pid 0) only: another
 * pid, the host's init included, is "no such process" whether or not it
 * exists, so neither its limits nor its CPU mask nor its existence show. */
START_TEST(filter_pid_calls_self_only)
{
    static char mask[128];
    long m = (long)mask;
    ck_assert_int_eq(in_filtered_child(false, SYS_prlimit64, 0, 7, 0), 0);
    ck_assert_int_eq(in_filtered_child(false, SYS_prlimit64, 1, 7, 0), -ESRCH);
    ck_assert_int_eq(in_filtered_child(false, SYS_prlimit64, getpid(), 7, 0),
                     -ESRCH);
    ck_assert_int_eq(
        in_filtered_child(false, SYS_sched_getaffinity, 0, sizeof(mask), m),
        0);
    ck_assert_int_eq(
        in_filtered_child(false, SYS_sched_getaffinity, 1, sizeof(mask), m),
        -ESRCH);
    ck_assert_int_eq(
        in_filtered_child(true, SYS_sched_getaffinity, 1, sizeof(mask), m),
        -ESRCH);
    ck_assert_int_eq(
        in_filtered_child(false, SYS_sched_setaffinity, 0, sizeof(mask), m),
        -EPERM);
}
END_TEST

/* The network profile is outbound only: no bind, no listen (a server on
 * the host's addresses), whatever the socket. */
START_TEST(filter_network_outbound_only)
{
    ck_assert_int_eq(in_filtered_child(true, SYS_connect, -1, 0, 0), -EBADF);
    ck_assert_int_eq(in_filtered_child(true, SYS_bind, -1, 0, 0), SIGSYS);
    ck_assert_int_eq(in_filtered_child(true, SYS_listen, -1, 0, 0), SIGSYS);
    ck_assert_int_eq(in_filtered_child(true, SYS_accept4, -1, 0, 0), SIGSYS);
    ck_assert_int_eq(in_filtered_child(false, SYS_bind, -1, 0, 0), SIGSYS);
}
END_TEST

/* SIGSEGV's default action, set with the kernel's own call: a
 * sanitizer's handler would turn the fault into a report and exit 1, and
 * its sigaction interceptor may keep that handler. */
static void
default_segv(void)
{
    struct {
        void *handler;
        unsigned long flags;
        void *restorer;
        unsigned long mask;
    } dfl = {NULL, 0, NULL, 0}; /* SIG_DFL */
    (void)syscall(SYS_rt_sigaction, SIGSEGV, &dfl, NULL, sizeof(dfl.mask));
}

/* A system call through another ABI never runs: the filter kills the
 * process (SIGSYS), or the kernel has no such ABI at all (SIGSEGV). */
static int
other_abi_child(bool x32)
{
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        default_segv();
        if (install_and_hand_over(sv[1], false) < 0) {
            _exit(99);
        }
        if (x32) {
            (void)syscall(0x40000000L | SYS_getpid);
        } else {
            long ret = 20; /* getpid on i386 */
            __asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
        }
        _exit(0);
    }
    close(sv[1]);
    (void)refused_call(sv[0], pid); /* exit_group if the call ran */
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    close(sv[0]);
    ck_assert_msg(WIFSIGNALED(st), "exit %d", WEXITSTATUS(st));
    return WTERMSIG(st);
}

START_TEST(filter_kills_other_abis)
{
    int s32 = other_abi_child(false);
    ck_assert_msg(s32 == SIGSYS || s32 == SIGSEGV, "i386: signal %d", s32);
    ck_assert_int_eq(other_abi_child(true), SIGSYS);
}
END_TEST

/* --- the fork gate (gate.c): whose hello is a new copy's ------------ */

/* This test process stands for a session's process (the forker), its
 * children for the processes it cloned. */
static PW_NORETURN void
wait_forever(void)
{
    for (;;) {
        (void)pause();
    }
}

static pid_t
waiting_child(void)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        wait_forever();
    }
    return pid;
}

static void *
thread_tells_tid(void *arg)
{
    pid_t tid = gettid();
    (void)pw_write_all(*(int *)arg, &tid, sizeof(tid));
    wait_forever();
}

/* The clone let through: a process with a child and a thread of its
 * own, whose ids it tells (IDS[0], IDS[1]). */
static pid_t
new_clone(pid_t ids[2])
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(p[0]);
        pthread_t t;
        pid_t kid = fork();
        if (kid == 0) {
            wait_forever();
        }
        if (kid < 0 || pw_write_all(p[1], &kid, sizeof(kid)) < 0 ||
            pthread_create(&t, NULL, thread_tells_tid, &p[1]) != 0) {
            _exit(1);
        }
        wait_forever();
    }
    close(p[1]);
    ck_assert_int_eq(read(p[0], &ids[0], sizeof(ids[0])),
                     (ssize_t)sizeof(ids[0]));
    ck_assert_int_eq(read(p[0], &ids[1], sizeof(ids[1])),
                     (ssize_t)sizeof(ids[1]));
    close(p[0]);
    return pid;
}

static void
end_child(pid_t pid)
{
    (void)kill(pid, SIGKILL);
    (void)waitpid(pid, NULL, 0);
}

START_TEST(fork_gate_admits_only_the_new_clone)
{
    /* A copy made before: the forker's child, as the new one will be
     * (its parent alone does not tell them apart). */
    pid_t earlier = waiting_child();
    ck_assert_int_eq(pw_sbx_proc_pid_field(earlier, "PPid:"), getpid());
    struct pw_sbx_gate g;
    memset(&g, 0, sizeof(g));
    ck_assert_msg(!pw_sbx_gate_admits(&g, earlier), "no clone let through");
    ck_assert_int_eq(pw_sbx_gate_let(&g, getpid()), 0);
    pid_t ids[2]; /* the new process's child and thread */
    pid_t fresh = new_clone(ids);
    ck_assert_int_ne(ids[1], fresh);
    /* Impostors first: none of them may take the one clone's hello. */
    ck_assert_msg(!pw_sbx_gate_admits(&g, earlier),
                  "a copy made before the clone was let through");
    ck_assert_msg(!pw_sbx_gate_admits(&g, getpid()), "the forker itself");
    ck_assert_msg(!pw_sbx_gate_admits(&g, ids[1]),
                  "a thread of the new process");
    ck_assert_msg(!pw_sbx_gate_admits(&g, ids[0]),
                  "a process the new one made");
    ck_assert_msg(!pw_sbx_gate_admits(&g, 1), "a process of another parent");
    ck_assert_msg(pw_sbx_gate_admits(&g, fresh), "the new process");
    ck_assert_msg(!pw_sbx_gate_admits(&g, fresh), "the same hello twice");
    /* One hello per clone let through. */
    pid_t second = waiting_child();
    ck_assert_msg(!pw_sbx_gate_admits(&g, second),
                  "a second process after one clone");
    ck_assert_int_eq(pw_sbx_gate_let(&g, getpid()), 0);
    ck_assert_msg(pw_sbx_gate_admits(&g, second),
                  "the second clone's process");
    ck_assert_msg(!pw_sbx_gate_admits(&g, earlier),
                  "a copy made before, after two clones");
    /* The gate belongs to one forker. */
    ck_assert_int_eq(pw_sbx_gate_let(&g, earlier), -1);
    (void)kill(ids[0], SIGKILL);
    end_child(fresh);
    end_child(second);
    end_child(earlier);
}
END_TEST

START_TEST(path_policy)
{
    const char *s = "/tmp/pyward-run.abc";
    ck_assert(pw_sbx_path_ok("notes.txt", s, true));
    ck_assert(pw_sbx_path_ok("/tmp/pyward-run.abc/x", s, true));
    ck_assert(!pw_sbx_path_ok("/tmp/pyward-run.abcd/x", s, true));
    ck_assert(!pw_sbx_path_ok("../x", s, true));
    ck_assert(!pw_sbx_path_ok("a/../../x", s, false));
    ck_assert(!pw_sbx_path_ok("/etc/passwd", s, false));
    ck_assert(pw_sbx_path_ok("/usr/lib/python3.11/os.py", s, false));
    ck_assert(!pw_sbx_path_ok("/usr/lib/python3.11/os.py", s, true));
    ck_assert(!pw_sbx_path_ok("/usr/lib/../../etc/passwd", s, false));
    /* Writing inside the workspace depends on the profiles' caps. */
    unsigned ws = PW_CAP_WORKSPACE_FILES, out = PW_CAP_OUTPUT_FILES;
    ck_assert(pw_sbx_write_ok("notes.txt", s, ws));
    ck_assert(!pw_sbx_write_ok("notes.txt", s, out));
    ck_assert(!pw_sbx_write_ok("notes.txt", s, 0));
    ck_assert(pw_sbx_write_ok("output/plot.png", s, out));
    ck_assert(pw_sbx_write_ok("./output/plot.png", s, out));
    ck_assert(pw_sbx_write_ok("/tmp/pyward-run.abc/output/a.svg", s, out));
    ck_assert(!pw_sbx_write_ok("/tmp/pyward-run.abc/outputs/a", s, out));
    ck_assert(!pw_sbx_write_ok("outputx/a", s, out));
    ck_assert(!pw_sbx_write_ok("output/plot.png", s, 0));
    ck_assert(pw_sbx_write_ok("/dev/null", s, 0));
}
END_TEST

/* --- the verdict, from forged result channels ------------------------ */

static const char *field(json_t *res, const char *key);

#define EXITED(N)   ((N) << 8)
#define SIGNALED(S) (S)

/* A finished run as the server saw it: wait status ST, and CHANNEL as what
 * came on the result channel. */
static void
finished_run(struct pw_sbx_run *r, const char *channel, int st,
             enum pw_sbx_stop stop, int refused)
{
    memset(r, 0, sizeof(*r));
    r->z = zygote;
    r->pid = 1;
    r->ws_fd = r->listener = r->pidfd = -1;
    r->stat_fd = r->status_fd = -1;
    r->out.fd = r->err.fd = r->res.fd = -1;
    r->cpu_base = -1;
    r->limits.timeout_s = 5;
    r->limits.max_output_bytes = 1000;
    r->wstatus = st;
    r->stop = stop;
    r->refused_nr = refused;
    r->done = true;
    snprintf(r->id, sizeof(r->id), "t");
    pw_buf_init(&r->res.buf);
    pw_buf_append(&r->res.buf, channel, strlen(channel));
}

static json_t *
result_of(struct pw_sbx_run *r)
{
    json_t *res = pw_sbx_result_build(r);
    pw_buf_free(&r->res.buf);
    ck_assert_ptr_nonnull(res);
    return res;
}

static json_t *
verdict_of(const char *channel, int st, enum pw_sbx_stop stop, int refused)
{
    struct pw_sbx_run r;
    finished_run(&r, channel, st, stop, refused);
    return result_of(&r);
}

/* The cpu_time of a run that used CPU_END seconds by its exit and whose
 * request was sent when it had used 0.1, with CHANNEL on its result
 * channel. */
static double
cpu_time_of(const char *channel, double cpu_end)
{
    struct pw_sbx_run r;
    finished_run(&r, channel, EXITED(0), PW_STOP_NONE, -1);
    r.exit_seen = true;
    r.cpu_end = cpu_end;
    r.cpu_base = 0.1;
    json_auto_t *res = result_of(&r);
    return json_real_value(json_object_get(res, "cpu_time"));
}

#define FORGED_OK                                                             \
    "R{\"result\": \"42\", \"variables\": {}, \"error\": null, "              \
    "\"exit_code\": 0}\n"

START_TEST(verdict_ignores_forged_reports)
{
    /* A forged "ok" report, then a crash: killed, as observed. */
    json_auto_t *a =
        verdict_of("L\nG\n" FORGED_OK, SIGNALED(SIGSEGV), PW_STOP_NONE, -1);
    ck_assert_str_eq(field(a, "status"), "killed");
    ck_assert_int_eq(json_integer_value(json_object_get(a, "signal")),
                     SIGSEGV);
    /* ... then an exit status of 3: error, whatever the report says. */
    json_auto_t *b =
        verdict_of("L\nG\n" FORGED_OK, EXITED(3), PW_STOP_NONE, -1);
    ck_assert_str_eq(field(b, "status"), "error");
    ck_assert_int_eq(json_integer_value(json_object_get(b, "exit_code")), 3);
    /* A setup failure written after the program started is the
     * program's: not internal_error. */
    json_auto_t *c = verdict_of("L\nG\nEnamespaces: invented\n", EXITED(0),
                                PW_STOP_NONE, -1);
    ck_assert_str_eq(field(c, "status"), "ok");
    /* A real one, before G, is. */
    json_auto_t *d =
        verdict_of("L\nEseccomp: refused\n", EXITED(125), PW_STOP_NONE, -1);
    ck_assert_str_eq(field(d, "status"), "internal_error");
    ck_assert(strstr(json_string_value(json_object_get(
                         json_object_get(d, "error"), "message")),
                     "seccomp: refused") != NULL);
    /* No G at all: the program never started. */
    json_auto_t *e = verdict_of(FORGED_OK, EXITED(0), PW_STOP_NONE, -1);
    ck_assert_str_eq(field(e, "status"), "internal_error");
    /* The run's CPU counts from the checklist's G; one the program
     * writes after it changes nothing; a G without a number leaves the
     * server's own reading at the request. */
    ck_assert_double_eq_tol(cpu_time_of("L\nG 500000000\nG 2400000000\n", 2.5),
                            2.0, 1e-9);
    ck_assert_double_eq_tol(cpu_time_of("L\nG\nG 2400000000\n", 2.5), 2.4,
                            1e-9);
    ck_assert_double_eq_tol(cpu_time_of("L\nG 5x\n", 2.5), 2.4, 1e-9);
}
END_TEST

START_TEST(verdict_checks_report_fields)
{
    /* Wrong types and NaN: dropped, the run stays what it was. */
    json_auto_t *a = verdict_of(
        "L\nG\nR{\"result\": NaN}\nR{\"result\": 7, \"variables\": [1], "
        "\"error\": {\"type\": 1}}\nR{\"result\": \"x\"}\n",
        EXITED(0), PW_STOP_NONE, -1);
    ck_assert_str_eq(field(a, "status"), "ok");
    ck_assert(json_is_null(json_object_get(a, "result")));
    ck_assert_int_eq(json_object_size(json_object_get(a, "variables")), 0);
    /* A report cut inside a UTF-8 character: still valid text. */
    char big[30000] = "L\nG\nR{\"result\": \"";
    size_t n = strlen(big);
    while (n < 25000) {
        big[n++] = '\xc3';
        big[n++] = '\xa9';
    }
    snprintf(big + n, sizeof(big) - n, "\"}\n");
    json_auto_t *b = verdict_of(big, EXITED(0), PW_STOP_NONE, -1);
    const char *res = json_string_value(json_object_get(b, "result"));
    ck_assert_ptr_nonnull(res);
    ck_assert_uint_le(strlen(res), 20000);
    ck_assert_int_eq(strlen(res) % 2, 0); /* whole characters only */
    json_auto_t *progs = json_incref(json_object_get(b, "program_reported"));
    ck_assert_uint_eq(json_array_size(progs), 4);
}
END_TEST

START_TEST(verdict_refused_call_observed)
{
    /* The listener's report wins over an audit event the program names,
     * and the call is named from its number. */
    json_auto_t *a = verdict_of("L\nG\nAopen\n", SIGNALED(SIGKILL),
                                PW_STOP_SYSCALL, SYS_ptrace);
    ck_assert_str_eq(field(a, "status"), "killed");
    json_t *blk = json_object_get(a, "blocked");
    ck_assert_str_eq(json_string_value(json_object_get(blk, "kind")),
                     "syscall");
    ck_assert_str_eq(json_string_value(json_object_get(blk, "name")),
                     "ptrace");
    ck_assert_str_eq(json_string_value(json_object_get(blk, "source")),
                     "observed");
    /* An audit event alone is the program's word. */
    json_auto_t *b = verdict_of("L\nG\nAopen\n", EXITED(1), PW_STOP_NONE, -1);
    ck_assert_str_eq(field(b, "status"), "error");
    blk = json_object_get(b, "blocked");
    ck_assert_str_eq(json_string_value(json_object_get(blk, "source")),
                     "program");
}
END_TEST

START_TEST(verdict_hook_altered_observed)
{
    /* The server found the run's audit hook altered: killed, whatever the
     * exit status and the report say. */
    struct pw_sbx_run r;
    finished_run(&r, "L\nG\n" FORGED_OK, EXITED(0), PW_STOP_NONE, -1);
    r.hook = PW_HOOK_ALTERED;
    json_auto_t *a = result_of(&r);
    ck_assert_str_eq(field(a, "status"), "killed");
    json_t *blk = json_object_get(a, "blocked");
    ck_assert_str_eq(json_string_value(json_object_get(blk, "kind")), "audit");
    ck_assert_str_eq(json_string_value(json_object_get(blk, "name")),
                     "audit hook altered");
    ck_assert_str_eq(json_string_value(json_object_get(blk, "source")),
                     "observed");
    finished_run(&r, "L\nG\n", EXITED(0), PW_STOP_NONE, -1);
    r.hook = PW_HOOK_UNREADABLE;
    json_auto_t *b = result_of(&r);
    ck_assert_str_eq(field(b, "status"), "killed");
}
END_TEST

static int
other_hook(const char *event, PyObject *args, void *data)
{
    return 0;
}

/* A child of this process (which loaded and sealed the audit lists) with
 * the audit hook installed for CAPS, OTHER_FIRST: another C hook added
 * before it; stopped for the parent to look at.  Its pid. */
static pid_t
hooked_child(unsigned caps, bool other_first)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        pw_sbx_audit_configure(caps, "/nonexistent", -1);
        if ((other_first && PySys_AddAuditHook(other_hook, NULL) < 0) ||
            pw_sbx_audit_install() < 0) {
            _exit(2);
        }
        raise(SIGSTOP);
        _exit(0);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, WUNTRACED), pid);
    ck_assert(WIFSTOPPED(st));
    return pid;
}

START_TEST(hook_check_reads_the_run)
{
    ck_assert_int_eq(pw_sbx_hookcheck_probe(0), 0);
    pid_t pid = hooked_child(PW_CAP_OUTPUT_FILES, false);
    ck_assert_int_eq(pw_sbx_hook_intact(pid, 0, PW_CAP_OUTPUT_FILES), 1);
    /* Against the zygote process (a fork of this one's image). */
    ck_assert_int_eq(
        pw_sbx_hook_intact(pid, zygote->zpid, PW_CAP_OUTPUT_FILES), 1);
    /* Armed for other capabilities than the run's. */
    ck_assert_int_eq(pw_sbx_hook_intact(pid, 0, PW_CAP_NETWORK), 0);
    end_child(pid);
    /* Another hook in the runtime's list before the sandbox's. */
    pid = hooked_child(0, true);
    ck_assert_int_eq(pw_sbx_hook_intact(pid, 0, 0), 0);
    end_child(pid);
}
END_TEST

/* --- runs through the zygote ------------------------------------------ */

static json_t *
run_request(struct pw_sbx_request *req)
{
    json_t *res = NULL;
    struct pw_error err = {0};
    ck_assert_msg(pw_queue_run_json(zygote, req, &res, &err) == 0, "%s",
                  err.message);
    while (pw_zygote_refill(zygote)) {
        /* as the server does when idle */
    }
    return res;
}

static json_t *
run_code(const char *code, const char *in, double timeout)
{
    struct pw_sbx_request req = {.code = code,
                                 .code_len = strlen(code),
                                 .stdin_data = in,
                                 .stdin_len = in ? strlen(in) : 0,
                                 .limits = {.timeout_s = timeout},
                                 .imports = &imports,
                                 .capture_output = true};
    return run_request(&req);
}

static const char *
field(json_t *res, const char *key)
{
    return json_string_value(json_object_get(res, key));
}

START_TEST(run_result_fields)
{
    json_auto_t *r =
        run_code("print('hi')\nx = [1, 2]\nlen(x) * 21\n", NULL, 10);
    ck_assert_str_eq(field(r, "status"), "ok");
    ck_assert(json_is_true(json_object_get(r, "success")));
    ck_assert_str_eq(field(r, "stdout"), "hi\n");
    ck_assert_str_eq(field(r, "result"), "42");
    json_t *x = json_object_get(json_object_get(r, "variables"), "x");
    ck_assert_str_eq(json_string_value(json_object_get(x, "repr")), "[1, 2]");
    ck_assert(json_is_null(json_object_get(r, "error")));
    ck_assert_int_eq(json_integer_value(json_object_get(r, "exit_code")), 0);
    ck_assert(json_object_get(r, "max_rss_kb") != NULL);
    ck_assert(json_real_value(json_object_get(r, "execution_time")) > 0);
}
END_TEST

/* The guard embedded at build time is its source's code, and a program
 * compiled once by the caller (pw_sbx_compile) is what its runs load:
 * given another program's code, a run prints that one's output. */
START_TEST(run_loads_compiled_code)
{
    ck_assert(pw_sbx_guard_code_current());
    const char *two = "print(2)\n";
    size_t len = 0;
    char *blob = pw_sbx_compile(two, strlen(two), 0, &len);
    ck_assert_ptr_nonnull(blob);
    ck_assert_uint_gt(len, 0);
    struct pw_sbx_request req = {.code = "print(1)\n",
                                 .code_len = 9,
                                 .imports = &imports,
                                 .capture_output = true,
                                 .compiled = blob,
                                 .compiled_len = len};
    json_auto_t *r = run_request(&req);
    ck_assert_str_eq(field(r, "stdout"), "2\n");
    free(blob);
    /* The rewriter's policy is the server's too: names it checks. */
    const char *owned = "class C:\n    pass\nc = C()\nc._x = __name__\n";
    blob = pw_sbx_compile(owned, strlen(owned), 0, &len);
    ck_assert_ptr_nonnull(blob);
    free(blob);
    /* What must be reported by the run is left to it: an error, a
     * warning. */
    const char *bad[] = {"print(1\n", "x = 1\nif x is 1:\n    pass\n"};
    for (size_t i = 0; i < PW_N_ELEMENTS(bad); i++) {
        ck_assert_ptr_null(pw_sbx_compile(bad[i], strlen(bad[i]), 0, &len));
    }
    json_auto_t *w = run_code(bad[1], NULL, 10);
    ck_assert_ptr_nonnull(strstr(field(w, "stderr"), "SyntaxWarning"));
}
END_TEST

/* A compiler registered on the zygote (pw_zygote_set_compiler): it
 * compiles "print(2)" whatever it is given, and counts its calls;
 * FAKE_LEAVES makes it leave every program to the guard instead. */
static int fake_calls;
static bool fake_leaves;

static PyObject *
fake_compiler(const char *src, size_t len, bool (*refused)(const char *))
{
    (void)src;
    (void)len;
    ck_assert(refused == pw_sbx_attr_store_refused);
    fake_calls++;
    if (fake_leaves) {
        return NULL;
    }
    size_t n = 0;
    char *blob = pw_sbx_compile("print(2)\n", 9, 0, &n);
    ck_assert_ptr_nonnull(blob);
    PyObject *b = PyBytes_FromStringAndSize(blob, (Py_ssize_t)n);
    free(blob);
    return b;
}

/* The zygote's registered compiler compiles a run's small program (what
 * it gives is what the run loads; where it leaves the program the
 * guard's rewrite compiles it), and pw_zygote_compile asks it first; a
 * large program is not compiled by the caller at all. */
START_TEST(zygote_compiler_first)
{
    pw_zygote_set_compiler(zygote, fake_compiler);
    fake_calls = 0;
    fake_leaves = false;
    json_auto_t *a = run_code("print(1)\n", NULL, 10);
    ck_assert_str_eq(field(a, "stdout"), "2\n");
    ck_assert_int_eq(fake_calls, 1);
    size_t len = 0;
    char *blob = pw_zygote_compile(zygote, "print(3)\n", 9, 0, &len);
    ck_assert_ptr_nonnull(blob);
    ck_assert_int_eq(fake_calls, 2);
    struct pw_sbx_request req = {.code = "print(3)\n",
                                 .code_len = 9,
                                 .imports = &imports,
                                 .capture_output = true,
                                 .compiled = blob,
                                 .compiled_len = len};
    json_auto_t *c = run_request(&req);
    ck_assert_str_eq(field(c, "stdout"), "2\n");
    ck_assert_int_eq(fake_calls, 2); /* compiled by the caller: not again */
    free(blob);
    fake_leaves = true;
    json_auto_t *b = run_code("print(1)\n", NULL, 10);
    ck_assert_str_eq(field(b, "stdout"), "1\n");
    ck_assert_int_eq(fake_calls, 3);
    /* Past PW_SBX_COMPILE_HERE_MAX the run's child compiles it. */
    size_t big = PW_SBX_COMPILE_HERE_MAX + 2;
    char *src = pw_xmalloc(big + 1);
    memset(src, '#', big);
    memcpy(src + big - 9, "print(1)\n", 9);
    src[big - 10] = '\n';
    src[big] = '\0';
    json_auto_t *d = run_code(src, NULL, 10);
    free(src);
    ck_assert_str_eq(field(d, "stdout"), "1\n");
    ck_assert_int_eq(fake_calls, 3);
    pw_zygote_set_compiler(zygote, NULL);
}
END_TEST

/* SRC's code object from marshalled BLOB (LEN bytes): a new reference. */
static PyObject *
load_code(const char *blob, Py_ssize_t len)
{
    PyObject *c = PyMarshal_ReadObjectFromString(blob, len);
    ck_assert_msg(c != NULL && PyCode_Check(c), "not a code object");
    return c;
}

/* The server's C compile of a small program (validator/blob.c) gives the
 * code object the guard's rewrite gives, or leaves the program to it. */
START_TEST(blob_is_the_guards_compile)
{
    const char *same[] = {
        "print('hi')\n",
        "x = [1, 2]\nx.append(3)\nprint(x)\nx\n",
        "import math\nprint(math.sqrt(2))\nmath.pi\n",
        "s = 'a b'.split()\nfor w in s:\n    print(w.upper())\n",
        "class A:\n    def f(self):\n        return self.x.y\n",
        "def g(a, *b, c=1, **d):\n    return (a.b.c, [i.real for i in b])\n",
        "w = x = 1\nf'{x.real!r:>{w.imag}}'\n",
        "k = lambda o: o.attr\n",
        "async def f(x):\n    await x.y\n    return [z.w async for z in x]\n",
        "try:\n    1 / 0\nexcept ValueError as e:\n    e.args\n",
        "a.b(c.d, e=f.g)[h.i].j\n",
        "match x.y:\n    case 1:\n        z.w\n    case [a, *r]:\n        "
        "pass\n",
        "if (n := len(a.b)) > 1:\n    n\n",
        "import os.path as p\nfrom json import dumps\ndumps(p.sep)\n",
        "x = 1\n\n\n   \nx\n",
        "@d.e\ndef f():\n    'doc'\n    global q\n    return q.r if q else "
        "2\n",
        "\"\"\"module doc\"\"\"\n",
        "",
        "a.b = 1\ndel a.c\na.d += 1\nclass C:\n    def __init__(s):\n"
        "        s.items = []\n",
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(same); i++) {
        size_t len = 0;
        char *guard = pw_sbx_compile(same[i], strlen(same[i]), 0, &len);
        ck_assert_msg(guard != NULL, "the guard compiles %s", same[i]);
        PW_PYAUTO PyObject *fast = pw_blob_compile(same[i], strlen(same[i]),
                                                   pw_sbx_attr_store_refused);
        ck_assert_msg(fast != NULL, "the C path takes %s", same[i]);
        PW_PYAUTO PyObject *a = load_code(guard, (Py_ssize_t)len);
        PW_PYAUTO PyObject *b =
            load_code(PyBytes_AS_STRING(fast), PyBytes_GET_SIZE(fast));
        ck_assert_msg(PyObject_RichCompareBool(a, b, Py_EQ) == 1,
                      "the same code for %s", same[i]);
        free(guard);
    }
    /* Left to the guard (owned or refused attribute stores, dunders,
     * class patterns), to
     * the child (errors, warnings) or read otherwise by the C parser
     * (coding declarations, a byte-order mark, NUL). */
    const char *other[] = {
        "a._b = 1\n",
        "del a._b\n",
        "a.gi_frame = 1\n",
        "x.__class__\n",
        "class A:\n    def f(s):\n        return s.__y\n",
        "print(__name__)\n",
        "match p:\n    case C(x=1):\n        pass\n",
        "# -*- coding: latin-1 -*-\nx = '\xc3\xa9'\n",
        "\xef\xbb\xbfx = 1\n",
        "x = 1\nif x is 1:\n    pass\n",
        "'\\d'\n",
        "print(1\n",
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(other); i++) {
        PW_PYAUTO PyObject *fast = pw_blob_compile(other[i], strlen(other[i]),
                                                   pw_sbx_attr_store_refused);
        ck_assert_msg(fast == NULL && !PyErr_Occurred(), "left: %s", other[i]);
    }
    const char nul[] = "x = 1\0\nimport os\n";
    ck_assert_ptr_null(pw_blob_compile(nul, sizeof(nul) - 1, NULL));
    /* The warnings filters are as they were. */
    PW_PYAUTO PyObject *w = PyImport_ImportModule("warnings");
    PW_PYAUTO PyObject *filters = PyObject_GetAttrString(w, "filters");
    PW_PYAUTO PyObject *first = PySequence_GetItem(filters, 0);
    PW_PYAUTO PyObject *action = PySequence_GetItem(first, 0);
    ck_assert_str_ne(PyUnicode_AsUTF8(action), "error");
}
END_TEST

/* Over the test suites' Python files: what the C path takes compiles to
 * the guard's code, and what the guard leaves to the child (an error, a
 * warning) the C path leaves too. */
static int blob_taken, blob_files;

static int
blob_check_file(const char *path, const struct stat *st, int type,
                struct FTW *ftw)
{
    (void)ftw;
    size_t n = strlen(path);
    if (type != FTW_F || n < 3 || strcmp(path + n - 3, ".py") != 0 ||
        st->st_size > PW_SBX_COMPILE_HERE_MAX) {
        return 0;
    }
    struct pw_buf b = {0};
    struct pw_error err = {0};
    ck_assert_int_eq(pw_read_file(path, 0, &b, &err), 0);
    pw_buf_append(&b, "", 1); /* NUL-terminated */
    size_t src_len = b.len - 1;
    size_t len = 0;
    char *guard = pw_sbx_compile(b.data, src_len, 0, &len);
    PW_PYAUTO PyObject *fast =
        pw_blob_compile(b.data, src_len, pw_sbx_attr_store_refused);
    ck_assert_msg(!PyErr_Occurred(), "%s: an exception left", path);
    blob_files++;
    if (fast != NULL) {
        ck_assert_msg(guard != NULL, "%s: taken, but the guard leaves it",
                      path);
        PW_PYAUTO PyObject *a = load_code(guard, (Py_ssize_t)len);
        PW_PYAUTO PyObject *c =
            load_code(PyBytes_AS_STRING(fast), PyBytes_GET_SIZE(fast));
        ck_assert_msg(PyObject_RichCompareBool(a, c, Py_EQ) == 1,
                      "%s: another code object", path);
        blob_taken++;
    }
    free(guard);
    pw_buf_free(&b);
    return 0;
}

START_TEST(blob_over_the_test_programs)
{
    /* The programs that must run (faithful, idioms, the beginner corpus
     * among them), the attacks, the rule cases. */
    const char *dirs[] = {"programs", "redteam", "cases"};
    for (size_t i = 0; i < PW_N_ELEMENTS(dirs); i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof(path), "%s/../tests/%s", PW_SRC_RULES_DIR,
                 dirs[i]);
        ck_assert_int_eq(nftw(path, blob_check_file, 16, FTW_PHYS), 0);
    }
    fprintf(stderr, "# the C path took %d of %d programs\n", blob_taken,
            blob_files);
    ck_assert_int_gt(blob_files, 1000);
    ck_assert_msg(blob_taken > blob_files / 4, "%d of %d taken", blob_taken,
                  blob_files);
}
END_TEST

START_TEST(run_error_trimmed)
{
    json_auto_t *r = run_code("def f():\n    return 1 / 0\nf()\n", NULL, 10);
    ck_assert_str_eq(field(r, "status"), "error");
    json_t *e = json_object_get(r, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "type")),
                     "ZeroDivisionError");
    ck_assert_int_eq(json_integer_value(json_object_get(e, "line")), 2);
    const char *tb = json_string_value(json_object_get(e, "traceback"));
    ck_assert_ptr_nonnull(strstr(tb, "line 3, in <module>"));
    ck_assert_ptr_null(strstr(tb, "guard"));
}
END_TEST

START_TEST(run_reseeded)
{
    /* Every child starts from the same zygote: its generators must not. */
    const char *code = "import random\nprint(random.random())";
    json_auto_t *a = run_code(code, NULL, 10);
    json_auto_t *b = run_code(code, NULL, 10);
    ck_assert_str_eq(field(a, "status"), "ok");
    ck_assert_str_ne(field(a, "stdout"), field(b, "stdout"));
}
END_TEST

START_TEST(run_stdin_large)
{
    /* More than a pipe buffer: fed by the poll loop, non-blocking. */
    size_t n = 1 << 20;
    char *in = malloc(n + 2);
    memset(in, 'a', n);
    in[n] = '\n';
    in[n + 1] = '\0';
    json_auto_t *r = run_code("print(len(input()))", in, 20);
    free(in);
    ck_assert_str_eq(field(r, "status"), "ok");
    ck_assert_str_eq(field(r, "stdout"), "1048576\n");
}
END_TEST

START_TEST(run_timeout_and_cancel)
{
    json_auto_t *r = run_code("while True:\n    pass\n", NULL, 0.3);
    ck_assert_str_eq(field(r, "status"), "timeout");
    ck_assert(json_is_false(json_object_get(r, "success")));

    struct pw_sbx_request req = {.code = "while True: pass",
                                 .code_len = 16,
                                 .limits = {.timeout_s = 30},
                                 .imports = &imports};
    struct pw_error err = {0};
    struct pw_sbx_run *run = pw_sbx_start(zygote, &req, &err);
    ck_assert_ptr_nonnull(run);
    pw_sbx_cancel(run);
    json_auto_t *c = pw_sbx_result_json(run);
    ck_assert_str_eq(field(c, "status"), "killed");
    pw_sbx_free(run);
}
END_TEST

START_TEST(run_output_cap)
{
    struct pw_sbx_request req = {
        .code = "print('y' * 5000)",
        .code_len = 17,
        .limits = {.timeout_s = 10, .max_output_bytes = 100},
        .imports = &imports,
        .capture_output = true};
    json_t *res = NULL;
    struct pw_error err = {0};
    ck_assert_int_eq(pw_queue_run_json(zygote, &req, &res, &err), 0);
    ck_assert_int_eq(strlen(field(res, "stdout")), 100);
    ck_assert(json_is_true(json_object_get(res, "stdout_truncated")));
    json_decref(res);
}
END_TEST

#define NCONC 6

START_TEST(run_concurrent)
{
    struct pw_sbx_run *runs[NCONC];
    char codes[NCONC][64];
    struct pw_error err = {0};
    for (int i = 0; i < NCONC; i++) {
        snprintf(codes[i], sizeof(codes[i]),
                 "import time\ntime.sleep(0.2)\nprint(%d * 11)", i);
        struct pw_sbx_request req = {.code = codes[i],
                                     .code_len = strlen(codes[i]),
                                     .limits = {.timeout_s = 20},
                                     .imports = &imports,
                                     .capture_output = true};
        runs[i] = pw_sbx_start(zygote, &req, &err);
        ck_assert_ptr_nonnull(runs[i]);
    }
    int left = NCONC;
    bool done[NCONC] = {false};
    while (left > 0) {
        struct pollfd fds[NCONC * 8];
        int off[NCONC + 1];
        int n = 0;
        for (int i = 0; i < NCONC; i++) {
            off[i] = n;
            n += done[i] ? 0 : pw_sbx_pollfds(runs[i], fds + n, 8);
        }
        off[NCONC] = n;
        ck_assert_int_ge(poll(fds, (nfds_t)n, 100), 0);
        for (int i = 0; i < NCONC; i++) {
            if (!done[i] &&
                pw_sbx_step(runs[i], fds + off[i], off[i + 1] - off[i])) {
                done[i] = true;
                left--;
            }
        }
    }
    for (int i = 0; i < NCONC; i++) {
        json_auto_t *r = pw_sbx_result_json(runs[i]);
        char want[16];
        snprintf(want, sizeof(want), "%d\n", i * 11);
        ck_assert_str_eq(field(r, "status"), "ok");
        ck_assert_str_eq(field(r, "stdout"), want);
        pw_sbx_free(runs[i]);
    }
}
END_TEST

static int
count_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    ck_assert_ptr_nonnull(d);
    while (readdir(d) != NULL) {
        n++;
    }
    closedir(d);
    return n;
}

static char tmp_root[] = "/tmp/pyward-check.XXXXXX";

static int
count_scratch_dirs(void)
{
    int n = 0;
    DIR *d = opendir(tmp_root);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        n += strncmp(e->d_name, "pyward-run.", 11) == 0;
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

static long
rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    return kb;
}

START_TEST(no_leaks_after_200_runs)
{
    /* 64 KiB of stdin per run: a leaked copy would show as 12 MiB. */
    char *in = malloc(65537);
    memset(in, 'z', 65536);
    in[65536] = '\0';
    json_decref(run_code("print(1)", in, 10));
    ck_assert_uint_eq(pw_zygote_reap(zygote, true), 0);
    /* Every spare asked of the zygote received, here and below: the pool
     * is the same size when the fds are counted. */
    pw_zygote_set_spares(zygote, 2);
    int fds = count_fds();
    int dirs = count_scratch_dirs();
    long rss = rss_kb();
    for (int i = 0; i < 200; i++) {
        json_auto_t *r = run_code(i % 2 ? "print(1)" : "1/0", in, 10);
        ck_assert_str_eq(field(r, "status"), i % 2 ? "ok" : "error");
    }
    free(in);
    pw_zygote_set_spares(zygote, 2);
    ck_assert_int_eq(count_fds(), fds);
#if !PW_SANITIZED
    /* (ASan's quarantine keeps freed memory: LeakSanitizer checks there.) */
    ck_assert_msg(rss_kb() - rss < 8192, "RSS grew by %ld KiB",
                  rss_kb() - rss);
#else
    (void)rss;
#endif
    /* Answered runs' processes and scratch directories are cleared when
     * idle, or a few at a time by the next runs: only the last few can be
     * pending, not 200; and once they are, no directory is left. */
    ck_assert_uint_le(pw_zygote_reap(zygote, false), PW_SBX_LEFTOVERS_MAX);
    ck_assert_uint_eq(pw_zygote_reap(zygote, true), 0);
    ck_assert_int_eq(count_scratch_dirs(), dirs);
    /* No zombie: only the spares waiting for the next runs are left. */
    ck_assert_int_le(waitpid(-1, NULL, WNOHANG), 0);
}
END_TEST

START_TEST(environment_scrubbed)
{
    ck_assert_ptr_null(getenv("PYWARD_RULES_DIR"));
    FILE *f = fopen("/proc/self/environ", "r");
    ck_assert_ptr_nonnull(f);
    char buf[65536];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++) {
        buf[i] = buf[i] == '\0' ? '\n' : buf[i];
    }
    ck_assert_ptr_null(strstr(buf, "PYWARD_RULES_DIR="));
    json_auto_t *layers = pw_zygote_layers_json(zygote);
    ck_assert(json_is_true(
        json_object_get(json_object_get(layers, "seccomp"), "active")));
}
END_TEST

/* --- the pool of prepared spares -------------------------------------- */

/* The value of KEY ("Seccomp:") in /proc/PID/status, -1 if absent. */
static long
status_field(pid_t pid, const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long v = -1;
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, key, strlen(key)) == 0) {
            v = strtol(line + strlen(key), NULL, 10);
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    return v;
}

/* Wait up to 5 s for the oldest spare to reach its request pipe with
 * seccomp installed; returns its pid. */
static pid_t
prepared_spare(void)
{
    ck_assert_int_gt(zygote->nspares, 0);
    pid_t pid = zygote->spares[0]->pid;
    for (int i = 0; i < 500 && status_field(pid, "Seccomp:") != 2; i++) {
        usleep(10000);
    }
    return pid;
}

/* 1: PID is in this process's namespace NS, 0: in another one, -1:
 * cannot tell (only root may look into a child that is not dumpable). */
static int
same_ns(pid_t pid, const char *ns)
{
    char a[64], b[64], la[128] = "", lb[128] = "";
    snprintf(a, sizeof(a), "/proc/self/ns/%s", ns);
    snprintf(b, sizeof(b), "/proc/%d/ns/%s", (int)pid, ns);
    ck_assert_int_gt(readlink(a, la, sizeof(la) - 1), 0);
    if (readlink(b, lb, sizeof(lb) - 1) <= 0) {
        ck_assert_int_eq(errno, EACCES);
        ck_assert_int_ne(geteuid(), 0);
        return -1;
    }
    return strcmp(la, lb) == 0;
}

/* The ns/NS link of PID into BUF. */
static void
ns_link(pid_t pid, const char *ns, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, ns);
    ssize_t n = readlink(path, buf, size - 1);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
}

static int count_entries(const char *dir, const char *only);

/* A and B, runs without files, are in the shared view: one mount
 * namespace (not the host's), an empty /proc, and a working directory on
 * a read-only mount even for root on the host. */
static void
shared_view_checks(pid_t a, pid_t b)
{
    char na[128], nb[128], self[128];
    ns_link(a, "mnt", na, sizeof(na));
    ns_link(b, "mnt", nb, sizeof(nb));
    ns_link(getpid(), "mnt", self, sizeof(self));
    ck_assert_str_eq(na, nb);
    ck_assert_str_ne(na, self);
    char path[128];
    snprintf(path, sizeof(path), "/proc/%d/root/proc", (int)a);
    ck_assert_int_eq(count_entries(path, NULL), 0);
    snprintf(path, sizeof(path), "/proc/%d/cwd/left-by-root", (int)a);
    ck_assert_int_lt(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644), 0);
    ck_assert_int_eq(errno, EROFS);
}

static struct pw_sbx_run *
start_code(const char *code, unsigned caps)
{
    struct pw_sbx_request req = {.code = code,
                                 .code_len = strlen(code),
                                 .limits = {.timeout_s = 20},
                                 .imports = &imports,
                                 .caps = caps,
                                 .capture_output = true};
    struct pw_error err = {0};
    struct pw_sbx_run *r = pw_sbx_start(zygote, &req, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    return r;
}

/* A file of LEN bytes (byte I is I * 7 % 251) in DIR, open for reading;
 * unlinked at once (only its fd names it). */
static int
temp_file(const char *dir, size_t len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/support.XXXXXX", dir);
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(unlink(path), 0);
    char buf[4096];
    for (size_t off = 0; off < len; off += sizeof(buf)) {
        size_t n = len - off < sizeof(buf) ? len - off : sizeof(buf);
        for (size_t k = 0; k < n; k++) {
            buf[k] = (char)((off + k) * 7 % 251);
        }
        ck_assert_int_eq(pw_write_all(fd, buf, n), 0);
    }
    return fd;
}

/* Support files given by fd are copied into the workspace before the
 * program starts (a file given twice, by two fds of one inode, once: its
 * other name a link), beside those given as bytes; the source files are
 * untouched by what the program writes; bad requests are refused before
 * any run. */
START_TEST(run_files_by_fd)
{
    const char *dir = tmp_root;
    int a = temp_file(dir, 3 << 20);
    char self[64];
    snprintf(self, sizeof(self), "/proc/self/fd/%d", a);
    int a2 = open(self, O_RDONLY | O_CLOEXEC); /* the same inode */
    ck_assert_int_ge(a2, 0);
    int b = temp_file(dir, 10);
    struct pw_sbx_file files[] = {
        {.name = "a.bin", .data = NULL, .fd = a},
        {.name = "again.bin", .data = NULL, .fd = a2},
        {.name = "b.bin", .data = NULL, .fd = b},
        {.name = "note.txt", .data = "inline", .len = 6, .fd = -1},
    };
    const char *code =
        "d = open('a.bin', 'rb').read()\n"
        "ok = all(d[i] == i * 7 % 251 for i in range(0, len(d), 4093))\n"
        "print(len(d), ok, d == open('again.bin', 'rb').read())\n"
        "print(list(open('b.bin', 'rb').read()), open('note.txt').read())\n"
        "with open('a.bin', 'r+b') as f:\n"
        "    f.write(b'XYZ')\n"
        "print(open('again.bin', 'rb').read(3))\n";
    struct pw_sbx_request req = {.code = code,
                                 .code_len = strlen(code),
                                 .limits = {.timeout_s = 20},
                                 .imports = &imports,
                                 .caps = PW_CAP_WORKSPACE_FILES |
                                         PW_CAP_OPEN_BUILTIN,
                                 .capture_output = true,
                                 .files = files,
                                 .nfiles = PW_N_ELEMENTS(files)};
    json_auto_t *r = run_request(&req);
    ck_assert_msg(strcmp(field(r, "status"), "ok") == 0, "%s",
                  field(r, "error"));
    ck_assert_str_eq(field(r, "stdout"),
                     "3145728 True True\n"
                     "[0, 7, 14, 21, 28, 35, 42, 49, 56, 63] inline\n"
                     "b'XYZ'\n");
    /* The program wrote into its copy, never into the file given. */
    char head[3];
    ck_assert_int_eq(pread(a, head, 3, 0), 3);
    ck_assert_int_eq(memcmp(head, "\0\a\016", 3), 0);

    struct pw_error err = {0};
    struct pw_sbx_run *run = NULL;
    /* One name twice. */
    files[1].name = "a.bin";
    ck_assert_ptr_null(run = pw_sbx_start(zygote, &req, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "named twice"));
    files[1].name = "again.bin";
    /* More bytes than a workspace holds (a sparse file). */
    int big = temp_file(dir, 0);
    ck_assert_int_eq(ftruncate(big, pw_zygote_workspace_bytes(zygote) + 1), 0);
    files[2].fd = big;
    memset(&err, 0, sizeof(err));
    ck_assert_ptr_null(run = pw_sbx_start(zygote, &req, &err));
    ck_assert_msg(strstr(err.message, "more than a run's workspace") != NULL,
                  "%s", err.message);
    /* Not a regular file. */
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    files[2].fd = p[0];
    memset(&err, 0, sizeof(err));
    ck_assert_ptr_null(run = pw_sbx_start(zygote, &req, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "not an open regular file"));
    /* Not for a session. */
    files[2].fd = b;
    req.session = true;
    memset(&err, 0, sizeof(err));
    ck_assert_ptr_null(run = pw_sbx_start(zygote, &req, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "not for sessions"));
    int fds[] = {a, a2, b, big, p[0], p[1]};
    for (size_t i = 0; i < PW_N_ELEMENTS(fds); i++) {
        close(fds[i]);
    }
}
END_TEST

static json_t *
finish_run(struct pw_sbx_run *r)
{
    struct pollfd fds[8];
    for (;;) {
        int n = pw_sbx_pollfds(r, fds, 8);
        ck_assert_int_ge(poll(fds, (nfds_t)n, 100), 0);
        if (pw_sbx_step(r, fds, n)) {
            return pw_sbx_result_json(r);
        }
    }
}

/* Finish R, which must end ok (with STDOUT unless NULL), and free it. */
static void
finish_ok(struct pw_sbx_run *r, const char *stdout_text)
{
    json_auto_t *res = finish_run(r);
    ck_assert_str_eq(field(res, "status"), "ok");
    if (stdout_text != NULL) {
        ck_assert_str_eq(field(res, "stdout"), stdout_text);
    }
    pw_sbx_free(r);
}

START_TEST(spare_prepared_before_request)
{
    /* Every request-independent layer is in place while the spare waits:
     * its filter and no_new_privs are already there, in its own network,
     * mount and user namespaces. */
    pid_t pid = prepared_spare();
    ck_assert_int_eq(status_field(pid, "Seccomp:"), 2);
    ck_assert_int_eq(status_field(pid, "NoNewPrivs:"), 1);
    ck_assert_int_ne(same_ns(pid, "net"), 1);
    ck_assert(same_ns(pid, "mnt") != 1 || !zygote->layers.mounts.active);
    ck_assert(same_ns(pid, "user") != 1 || !zygote->layers.userns);
}
END_TEST

START_TEST(spare_run_has_every_layer)
{
    pid_t pid = prepared_spare();
    struct pw_sbx_run *a =
        start_code("import time\ntime.sleep(1.5)\nprint('a')", 0);
    ck_assert(a->on_spare);
    ck_assert_int_eq(a->pid, pid);
    struct pw_sbx_run *b = start_code("import time\ntime.sleep(1.5)", 0);
    ck_assert(b->on_spare);
    usleep(300000);
    ck_assert_int_eq(status_field(a->pid, "Seccomp:"), 2);
    ck_assert_int_eq(status_field(a->pid, "NoNewPrivs:"), 1);
    ck_assert_int_ne(same_ns(a->pid, "net"), 1);
    /* Each run sees its own scratch dir, not the other's: a directory of
     * its own view when the path is the same, else a path the other
     * cannot reach. */
    char path[700];
    snprintf(path, sizeof(path), "/proc/%d/root%s", (int)b->pid, a->scratch);
    if (zygote->layers.mounts.shared && geteuid() == 0) {
        /* Runs without files share one read-only view: the same empty
         * directory, where not even root on the host can leave a file. */
        shared_view_checks(a->pid, b->pid);
    } else if (zygote->layers.mounts.active && geteuid() == 0 &&
               strcmp(a->scratch, b->scratch) == 0) {
        struct stat sa;
        struct stat sb;
        snprintf(path, sizeof(path), "/proc/%d/cwd", (int)a->pid);
        ck_assert_int_eq(stat(path, &sa), 0);
        snprintf(path, sizeof(path), "/proc/%d/cwd", (int)b->pid);
        ck_assert_int_eq(stat(path, &sb), 0);
        ck_assert(sa.st_dev != sb.st_dev || sa.st_ino != sb.st_ino);
    } else if (zygote->layers.mounts.active && geteuid() == 0) {
        ck_assert_int_eq(access(path, F_OK), -1);
        snprintf(path, sizeof(path), "/proc/%d/root%s", (int)b->pid,
                 b->scratch);
        ck_assert_int_eq(access(path, F_OK), 0);
    }
    finish_ok(a, "a\n");
    finish_ok(b, NULL);
}
END_TEST

START_TEST(spare_refuses_other_requests)
{
    /* The network capability needs layers a spare did not install (the
     * zygote's profiles do not enable it): the zygote forks a spare for
     * that run ... */
    int before = zygote->nspares;
    struct pw_sbx_run *r = start_code("print(6 * 7)", PW_CAP_NETWORK);
    ck_assert(!r->on_spare);
    ck_assert_int_eq(zygote->nspares, before);
    json_auto_t *res = finish_run(r);
    ck_assert_str_eq(field(res, "status"), "ok");
    ck_assert_str_eq(field(res, "stdout"), "42\n");
    pw_sbx_free(r);
    /* ... and a spare handed such a request anyway refuses it. */
    (void)prepared_spare();
    struct pw_sbx_spare *s = zygote->spares[0];
    zygote->nspares--;
    for (int i = 0; i < zygote->nspares; i++) {
        zygote->spares[i] = zygote->spares[i + 1];
    }
    struct pw_sbx_request req = {.code = "print(1)",
                                 .code_len = 8,
                                 .limits = {.timeout_s = 5},
                                 .imports = &imports,
                                 .caps = PW_CAP_NETWORK};
    /* One write: the spare's refusal after the header cannot fail it. */
    ck_assert_int_eq(pw_sbx_spare_send(s, &req, &req.limits), 0);
    char buf[512];
    ssize_t n, got = 0;
    while ((n = read(s->fds[3], buf + got, sizeof(buf) - 1 - (size_t)got)) >
           0) {
        got += n;
    }
    buf[got > 0 ? got : 0] = '\0';
    /* After the listener's tag, the checklist's refusal. */
    ck_assert_msg(strncmp(buf, "L\nEprepared spare", 17) == 0, "%s", buf);
    int st = 0;
    ck_assert_int_eq(waitpid(s->pid, &st, 0), s->pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 125);
    s->pid = -1;
    pw_sbx_spare_free(zygote, s);
}
END_TEST

/* --- files count in the memory limit ------------------------------- */

#define FILES_CAPS ((unsigned)(PW_CAP_WORKSPACE_FILES | PW_CAP_OUTPUT_FILES))

/* Writes 64 KiB at a time until the workspace is full (half the files
 * in output/), then takes memory 1 MiB at a time until MemoryError:
 * prints the bytes written and the bytes held. */
static const char files_then_memory[] =
    "from pathlib import Path\n"
    "MiB = 1 << 20\n"
    "chunk = b'\\1' * (64 << 10)\n"
    "written = 0\n"
    "try:\n"
    "    for i in range(64):\n"
    "        name = ('output/f%d' if i % 2 else 'f%d') % i\n"
    "        with Path(name).open('wb', buffering=0) as f:\n"
    "            for _ in range(128):\n"
    "                n = f.write(chunk)\n"
    "                written += n\n"
    "                if n < len(chunk):\n"
    "                    raise OSError('short write')\n"
    "except OSError:\n"
    "    pass\n"
    "held = []\n"
    "try:\n"
    "    while True:\n"
    "        held.append(b'\\1' * MiB)\n"
    "except MemoryError:\n"
    "    pass\n"
    "print(written, len(held) * MiB + len(chunk))\n";

/* The profiles with files, and the import set of their runs. */
static pw_profile_mask
files_mask(void)
{
    pw_profile_mask mask = imports.mask;
    struct pw_error err = {0};
    ck_assert_int_eq(
        pw_profiles_parse_list(profiles, "basic,filesystem", &mask, &err), 0);
    return mask;
}

/* The test's zygote replaced by one for the profiles with files (their
 * modules imported, as a server's); the old one is returned. */
static struct pw_zygote *
files_zygote(void)
{
    struct pw_zygote *saved = zygote;
    struct pw_error err = {0};
    zygote = pw_zygote_new(profiles, files_mask(), &err);
    ck_assert_msg(zygote != NULL, "%s", err.message);
    return saved;
}

/* A run with the file capabilities and MEMORY bytes of limit, started
 * (on a spare or not). */
static struct pw_sbx_run *
start_files(const char *code, long long memory, struct pw_error *err)
{
    struct pw_importset set = imports;
    set.mask = files_mask();
    struct pw_sbx_request req = {
        .code = code,
        .code_len = strlen(code),
        .limits = {.timeout_s = 30, .memory_bytes = memory},
        .imports = &set,
        .caps = FILES_CAPS,
        .capture_output = true};
    return pw_sbx_start(zygote, &req, err);
}

START_TEST(workspace_counts_in_memory)
{
    /* A run's workspace tmpfs is memory its AS limit does not see: it is
     * sized from the run's memory limit (the cap halved until it is at
     * most half of it) and the AS limit takes the rest, so the files
     * and the memory a program holds never add up past the limit. */
    if (!pw_sbx_workspace_tmpfs(zygote, FILES_CAPS)) {
        return;
    }
    struct pw_zygote *saved = files_zygote();
    long long cap = zygote->layers.mounts.ws_bytes;
    const long long limits[] = {4 * cap, 100LL << 20, 24LL << 20};
    for (size_t i = 0; i < PW_N_ELEMENTS(limits); i++) {
        long long memory = limits[i];
        long long ws = pw_sbx_workspace_bytes(zygote, FILES_CAPS, memory);
        ck_assert(ws > 0 && ws <= memory / 2);
        ck_assert(ws == cap || ws > memory / 4);
        struct pw_error err = {0};
        struct pw_sbx_run *r = start_files(files_then_memory, memory, &err);
        ck_assert_msg(r != NULL, "%s", err.message);
        json_auto_t *res = finish_run(r);
        pw_sbx_free(r);
        ck_assert_msg(strcmp(field(res, "status"), "ok") == 0, "%s",
                      json_dumps(res, 0));
        long long written = -1;
        long long held = -1;
        ck_assert_int_eq(
            sscanf(field(res, "stdout"), "%lld %lld", &written, &held), 2);
        /* The files get exactly their share, the rest is the program's. */
        ck_assert_int_eq(written, ws);
        ck_assert_msg(written + held <= memory,
                      "limit %lld: files %lld + memory %lld", memory, written,
                      held);
        ck_assert_msg(held > (memory - ws) / 2,
                      "limit %lld: only %lld of memory beside %lld of files",
                      memory, held, written);
    }
    pw_zygote_free(zygote);
    zygote = saved;
}
END_TEST

START_TEST(workspace_needs_room_in_memory)
{
    /* Below two pages of limit there is no room for a workspace: such a
     * run with files is refused before any spare is asked; without
     * files it runs. */
    if (!pw_sbx_workspace_tmpfs(zygote, FILES_CAPS)) {
        return;
    }
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_lt(pw_sbx_workspace_bytes(zygote, FILES_CAPS, page), 0);
    ck_assert_int_eq(pw_sbx_workspace_bytes(zygote, 0, page), 0);
    ck_assert_int_eq(pw_sbx_workspace_bytes(zygote, FILES_CAPS, 2 * page),
                     page);
    struct pw_error err = {0};
    ck_assert_ptr_null(start_files("print(1)", page, &err));
    ck_assert_msg(strstr(err.message, "no room for the workspace") != NULL,
                  "%s", err.message);
}
END_TEST

START_TEST(spare_refuses_other_workspace_size)
{
    /* The workspace's size is part of what a spare is prepared for: a
     * spare whose tmpfs fits the default memory limit, handed a request
     * with a smaller limit anyway, refuses it. */
    if (!pw_sbx_workspace_tmpfs(zygote, FILES_CAPS)) {
        return;
    }
    long long memory = 24LL << 20;
    ck_assert_uint_ne(
        pw_sbx_spare_key(zygote, FILES_CAPS, zygote->policy.default_memory),
        pw_sbx_spare_key(zygote, FILES_CAPS, memory));
    struct pw_zygote *saved = files_zygote();
    struct pw_error err = {0};
    struct pw_sbx_run *r = start_files("print(1)", 0, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    finish_ok(r, "1\n");
    /* The pool now follows that request: spares with the default's
     * workspace. */
    pw_zygote_set_spares(zygote, 1);
    ck_assert_int_eq(zygote->nspares, 1);
    ck_assert_uint_eq(
        zygote->spares[0]->caps,
        pw_sbx_spare_key(zygote, FILES_CAPS, zygote->policy.default_memory));
    (void)prepared_spare();
    struct pw_sbx_spare *s = zygote->spares[0];
    zygote->nspares = 0;
    struct pw_importset set = imports;
    set.mask = files_mask();
    struct pw_sbx_request req = {
        .code = "print(1)",
        .code_len = 8,
        .limits = {.timeout_s = 5, .memory_bytes = memory},
        .imports = &set,
        .caps = FILES_CAPS};
    ck_assert_int_eq(pw_sbx_spare_send(s, &req, &req.limits), 0);
    char buf[512];
    ssize_t n, got = 0;
    while ((n = read(s->fds[3], buf + got, sizeof(buf) - 1 - (size_t)got)) >
           0) {
        got += n;
    }
    buf[got > 0 ? got : 0] = '\0';
    ck_assert_msg(strstr(buf, "Eprepared spare") != NULL, "%s", buf);
    int st = 0;
    ck_assert_int_eq(waitpid(s->pid, &st, 0), s->pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 125);
    s->pid = -1;
    pw_sbx_spare_free(zygote, s);
    /* Through the pool, the same request gets a spare of its own. */
    r = start_files("print(2)", memory, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    ck_assert(!r->on_spare);
    finish_ok(r, "2\n");
    pw_zygote_free(zygote);
    zygote = saved;
}
END_TEST

START_TEST(spare_prepared_for_network)
{
    /* With the network profile enabled (what requests get by default),
     * the spares are prepared for it: in the host's network namespace,
     * under the network seccomp program.  A request without it forks. */
    pw_profile_mask mask = imports.mask;
    struct pw_error err = {0};
    ck_assert_int_eq(
        pw_profiles_parse_list(profiles, "basic,network", &mask, &err), 0);
    struct pw_zygote *saved = zygote;
    zygote = pw_zygote_new(profiles, mask, &err);
    ck_assert_msg(zygote != NULL, "%s", err.message);
    pw_zygote_set_spares(zygote, 2);
    pid_t pid = prepared_spare();
    ck_assert_int_ne(same_ns(pid, "net"), 0);
    struct pw_sbx_run *r = start_code("print('net')", PW_CAP_NETWORK);
    ck_assert(r->on_spare);
    json_auto_t *a = finish_run(r);
    ck_assert_str_eq(field(a, "stdout"), "net\n");
    pw_sbx_free(r);
    r = start_code("print('no net')", 0);
    ck_assert(!r->on_spare);
    json_auto_t *b = finish_run(r);
    ck_assert_str_eq(field(b, "stdout"), "no net\n");
    pw_sbx_free(r);
    /* The spares follow the requests: once refilled, the pool holds spares
     * prepared for runs without the network, in the empty namespace. */
    pw_zygote_set_spares(zygote, 2);
    ck_assert_int_eq(zygote->nspares, 2);
    for (int i = 0; i < zygote->nspares; i++) {
        ck_assert_uint_eq(zygote->spares[i]->caps, 0);
    }
    ck_assert_int_ne(same_ns(prepared_spare(), "net"), 1);
    r = start_code("print('no net again')", 0);
    ck_assert(r->on_spare);
    json_auto_t *c = finish_run(r);
    ck_assert_str_eq(field(c, "stdout"), "no net again\n");
    pw_sbx_free(r);
    pw_zygote_free(zygote);
    zygote = saved;
}
END_TEST

/* A sleeping run started on Z (made the test's zygote for the start). */
static struct pw_sbx_run *
start_on(struct pw_zygote *z, const char *code)
{
    struct pw_zygote *saved = zygote;
    zygote = z;
    struct pw_sbx_run *r = start_code(code, 0);
    zygote = saved;
    return r;
}

START_TEST(zygote_beside_shares_the_host)
{
    /* A zygote made beside another (serve's light one) takes the facts
     * the first probed, with fds of its own: the same layers, runs of
     * both in one held network namespace and one shared view, and it
     * goes on once the first is freed. */
    struct pw_error err = {0};
    struct pw_zygote *first = pw_zygote_new(profiles, imports.mask, &err);
    ck_assert_msg(first != NULL, "%s", err.message);
    struct pw_zygote *beside =
        pw_zygote_new_beside(first, profiles, imports.mask, &err);
    ck_assert_msg(beside != NULL, "%s", err.message);
    pw_zygote_set_spares(beside, 1);
    ck_assert_ptr_null(pw_zygote_error(beside));
    json_auto_t *la = pw_zygote_layers_json(first);
    json_auto_t *lb = pw_zygote_layers_json(beside);
    ck_assert(json_equal(la, lb));
    ck_assert_int_eq(beside->pidns, first->pidns);
    const char *nap = "import time\ntime.sleep(1.5)";
    struct pw_sbx_run *a = start_on(first, nap);
    struct pw_sbx_run *b = start_on(beside, nap);
    usleep(300000);
    char na[128], nb[128];
    ck_assert_int_ne(same_ns(b->pid, "net"), 1);
    if (first->layers.netns_fd >= 0) {
        ns_link(a->pid, "net", na, sizeof(na));
        ns_link(b->pid, "net", nb, sizeof(nb));
        ck_assert_str_eq(na, nb);
    }
    if (first->layers.mounts.shared && geteuid() == 0) {
        shared_view_checks(a->pid, b->pid);
    }
    finish_ok(a, NULL);
    finish_ok(b, NULL);
    pw_zygote_free(first);
    finish_ok(start_on(beside, "print('after')"), "after\n");
    pw_zygote_free(beside);
}
END_TEST

START_TEST(zygote_beside_holds_its_own_fds)
{
    /* Without an fd left to hold the first zygote's namespaces there is
     * no zygote beside it (serve then forks every run from the first),
     * never one with fewer layers. */
    if (zygote->layers.netns_fd < 0 && !zygote->layers.mounts.shared) {
        return; /* nothing held to share on this host */
    }
    struct rlimit old;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
    int lowest = dup(0); /* every fd below it is taken */
    ck_assert_int_ge(lowest, 0);
    close(lowest);
    struct rlimit low = {.rlim_cur = (rlim_t)lowest, .rlim_max = old.rlim_max};
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
    struct pw_error err = {0};
    struct pw_zygote *beside =
        pw_zygote_new_beside(zygote, profiles, imports.mask, &err);
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
    ck_assert_ptr_null(beside);
    ck_assert_msg(strstr(err.message, "holding the namespaces") != NULL, "%s",
                  err.message);
}
END_TEST

START_TEST(spare_dead_is_discarded)
{
    /* A spare that died while it waited (a failed step, a kill) is never
     * handed a request: the run goes to the next one or forks. */
    pid_t pid = prepared_spare();
    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    siginfo_t si;
    ck_assert_int_eq(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
    struct pw_sbx_run *r = start_code("print('next')", 0);
    ck_assert_int_ne(r->pid, pid);
    json_auto_t *res = finish_run(r);
    ck_assert_str_eq(field(res, "status"), "ok");
    ck_assert_str_eq(field(res, "stdout"), "next\n");
    pw_sbx_free(r);
    ck_assert_int_eq(kill(pid, 0), -1); /* reaped */
}
END_TEST

START_TEST(spare_cancel_kills)
{
    struct pw_sbx_run *r = start_code("while True:\n    pass\n", 0);
    ck_assert(r->on_spare);
    pid_t pid = r->pid;
    usleep(100000);
    pw_sbx_cancel(r);
    json_auto_t *res = pw_sbx_result_json(r);
    ck_assert_str_eq(field(res, "status"), "killed");
    pw_sbx_free(r);
    ck_assert_int_eq(kill(pid, 0), -1);
    ck_assert_int_eq(errno, ESRCH);

    r = start_code("while True:\n    pass\n", 0);
    ck_assert(r->on_spare);
    pid = r->pid;
    r->limits.timeout_s = 0.3;
    json_auto_t *t = finish_run(r);
    ck_assert_str_eq(field(t, "status"), "timeout");
    pw_sbx_free(r);
    ck_assert_int_eq(kill(pid, 0), -1);
}
END_TEST

START_TEST(spare_usage_is_the_runs)
{
    /* The spare spent CPU on its warm-up before the request: the run
     * reports only its own (CPU time of one thread cannot exceed the
     * wall clock of the run). */
    struct pw_sbx_run *r = start_code("x = sum(range(2_000_000))", 0);
    ck_assert(r->on_spare);
    ck_assert(r->cpu_base >= 0);
    json_auto_t *res = finish_run(r);
    double cpu = json_real_value(json_object_get(res, "cpu_time"));
    double wall = json_real_value(json_object_get(res, "execution_time"));
    ck_assert_msg(cpu > 0.01 && cpu <= wall + 0.002, "cpu %f wall %f", cpu,
                  wall);
    ck_assert_int_gt(json_integer_value(json_object_get(res, "max_rss_kb")),
                     0);
    pw_sbx_free(r);
}
END_TEST

/* The spares in the pool and those asked of the zygote process, on their
 * way. */
static int
pool_count(void)
{
    return zygote->nspares + zygote->nasked;
}

START_TEST(spare_pool_size)
{
    pw_zygote_set_spares(zygote, 3);
    ck_assert_int_eq(zygote->nspares, 3);
    int fds = count_fds();
    for (int i = 0; i < 20; i++) {
        json_auto_t *r = run_code("print(5)", NULL, 10);
        ck_assert_str_eq(field(r, "stdout"), "5\n");
        ck_assert_int_eq(pool_count(), 3);
    }
    pw_zygote_set_spares(zygote, 3); /* every answer received */
    ck_assert_int_eq(count_fds(), fds);
    pw_zygote_set_spares(zygote, 0);
    ck_assert_int_eq(zygote->nspares, 0);
    json_auto_t *r = run_code("print('on demand')", NULL, 10);
    ck_assert_str_eq(field(r, "stdout"), "on demand\n");
    ck_assert_int_eq(zygote->nspares, 0);
    pw_zygote_set_spares(zygote, 2);
    ck_assert_uint_eq(pw_zygote_reap(zygote, true), 0);
    ck_assert_int_le(waitpid(-1, NULL, WNOHANG), 0);
}
END_TEST

/* A queue entry's end: its stdout kept in CTX's slot INDEX. */
static void
keep_stdout(void *ctx, size_t index, struct pw_sbx_result *res,
            const struct pw_error *err)
{
    char **outs = ctx;
    ck_assert_msg(res != NULL, "%s", err->message);
    outs[index] = res->out.data;
    res->out.data = NULL;
}

START_TEST(batch_refills_on_start)
{
    /* A server whose client paused has its runs fork no spare (it
     * refills in pauses); a group's runs in the queue follow one another
     * at once, so each forks its replacement as it starts: the pool is
     * full again at the end instead of emptied, and the caller's setting
     * comes back. */
    (void)pw_zygote_refill_on_start(zygote, false);
    enum { N = 6 };
    char *outs[N] = {0};
    struct pw_queue *q = pw_queue_new(2);
    struct pw_queue_group *g = pw_queue_group_new(q, 0);
    for (size_t i = 0; i < N; i++) {
        struct pw_run_spec spec = {.req = {.code = "print(7)",
                                           .code_len = 8,
                                           .limits = {.timeout_s = 20},
                                           .imports = &imports,
                                           .capture_output = true},
                                   .zygote = zygote};
        pw_queue_add(g, &spec, keep_stdout, outs, i);
    }
    while (pw_queue_group_size(g) > 0) {
        pw_queue_turn(q, zygote, NULL);
    }
    pw_queue_group_free(g);
    pw_queue_free(q);
    for (int i = 0; i < N; i++) {
        ck_assert_str_eq(outs[i], "7\n");
        free(outs[i]);
    }
    ck_assert(!pw_zygote_short(zygote));
    ck_assert(!pw_zygote_refill_on_start(zygote, false));
}
END_TEST

/* The order entries end in: their labels (INDEX) appended. */
struct ends {
    char order[16];
    size_t n;
    char why[512];
};

static void
note_end(void *ctx, size_t index, struct pw_sbx_result *res,
         const struct pw_error *err)
{
    struct ends *e = ctx;
    if (res == NULL) {
        snprintf(e->why, sizeof(e->why), "%s", err->message);
    }
    e->order[e->n++] = (char)index;
}

static struct pw_run_spec
print_spec(void)
{
    return (struct pw_run_spec){.req = {.code = "print(7)",
                                        .code_len = 8,
                                        .limits = {.timeout_s = 20},
                                        .imports = &imports,
                                        .capture_output = true},
                                .zygote = zygote};
}

START_TEST(queue_takes_turns)
{
    /* One slot: client 1 queues a suite of three (A) and then a single
     * run (C), client 2 a single run (B).  The slot goes to the client
     * served least recently, and within a client to its group served
     * least recently: A's first, then B, then C, then A's others. */
    struct pw_queue *q = pw_queue_new(1);
    struct pw_queue_group *a = pw_queue_group_new(q, 1);
    struct pw_queue_group *b = pw_queue_group_new(q, 2);
    struct pw_queue_group *c = pw_queue_group_new(q, 1);
    struct ends e = {0};
    struct pw_run_spec spec = print_spec();
    for (int i = 0; i < 3; i++) {
        pw_queue_add(a, &spec, note_end, &e, 'a');
    }
    pw_queue_add(b, &spec, note_end, &e, 'b');
    pw_queue_add(c, &spec, note_end, &e, 'c');
    ck_assert_uint_eq(pw_queue_waiting(q), 2); /* a takes the free slot */
    while (e.n < 5) {
        pw_queue_turn(q, zygote, NULL);
    }
    ck_assert_str_eq(e.order, "abcaa");
    ck_assert_uint_eq(pw_queue_group_size(a), 0);
    pw_queue_group_free(a);
    pw_queue_group_free(b);
    pw_queue_group_free(c);
    pw_queue_free(q);
}
END_TEST

static struct pw_sbx_run *
refuse_start(void *ctx, const struct pw_run_spec *spec, struct pw_error *err)
{
    (void)ctx;
    (void)spec;
    pw_fail(err, PW_ERR_SANDBOX, "refused here");
    return NULL;
}

START_TEST(queue_group_free_kills)
{
    /* A group freed with a run in flight and one queued: the run's
     * process is killed, neither entry's callback comes; an entry whose
     * start fails ends at once with the reason. */
    struct pw_queue *q = pw_queue_new(1);
    struct pw_queue_group *g = pw_queue_group_new(q, 0);
    struct ends e = {0};
    struct pw_run_spec busy = print_spec();
    busy.req.code = "while True: pass";
    busy.req.code_len = strlen(busy.req.code);
    struct pw_queue_entry *first = pw_queue_add(g, &busy, note_end, &e, 'x');
    pw_queue_add(g, &busy, note_end, &e, 'y');
    pw_queue_start(q);
    struct pw_sbx_run *run = pw_queue_entry_run(first);
    ck_assert_ptr_nonnull(run);
    pid_t pid = run->pid;
    ck_assert_int_eq(pw_queue_running(q), 1);
    ck_assert_uint_eq(pw_queue_queued(q), 1);
    pw_queue_group_free(g);
    ck_assert_int_eq(pw_queue_running(q), 0);
    ck_assert_uint_eq(pw_queue_queued(q), 0);
    ck_assert_uint_eq(e.n, 0);
    (void)pw_zygote_reap(zygote, true);
    ck_assert_int_eq(kill(pid, 0), -1);

    g = pw_queue_group_new(q, 0);
    struct pw_run_spec refused = print_spec();
    refused.start = refuse_start;
    pw_queue_add(g, &refused, note_end, &e, 'z');
    pw_queue_start(q);
    ck_assert_str_eq(e.order, "z");
    ck_assert_str_eq(e.why, "refused here");
    pw_queue_group_free(g);
    pw_queue_free(q);
}
END_TEST

/* One run of print(1) started, waited for and freed at once; with
 * OVERLAP, a second one started while the first is in flight. */
static void
paced_run(bool overlap)
{
    struct pw_sbx_run *a = start_code("print(1)", 0);
    struct pw_sbx_run *b = NULL;
    if (overlap) {
        b = start_code("print(1)", 0);
        ck_assert_int_eq(zygote->inflight, 2);
        json_decref(finish_run(b));
    }
    json_decref(finish_run(a));
    pw_sbx_free(a);
    pw_sbx_free(b);
}

START_TEST(pace_tells_pauses)
{
    /* Spares warm a figure up only for a client that pauses, and do not
     * warm up at all for one that sends its runs back to back: the idle
     * time before each run says which.  Starts and idle times a quarter
     * second apart are written in here, not waited for. */
    zygote->nstarts = 0;
    ck_assert_int_eq(pw_sbx_pace(zygote), PW_SBX_PACE_PAUSES); /* none yet */
    paced_run(false);
    paced_run(false);
    ck_assert_int_eq(zygote->nstarts, 2);
    ck_assert_int_eq(zygote->inflight, 0);
    ck_assert(zygote->idle[1] < 0.005); /* back to back */
    paced_run(false);
    ck_assert_int_eq(pw_sbx_pace(zygote), PW_SBX_PACE_HURRIED);
    double t = pw_now();
    for (int i = 0; i < PW_SBX_PACE_RUNS; i++) {
        zygote->starts[i] = t - 1.0 + 0.25 * i;
        zygote->idle[i] = 0.2;
    }
    zygote->nstarts = PW_SBX_PACE_RUNS;
    ck_assert_int_eq(pw_sbx_pace(zygote), PW_SBX_PACE_PAUSES);
    zygote->starts[2] = zygote->starts[1] + 0.2;
    ck_assert_int_eq(pw_sbx_pace(zygote), PW_SBX_PACE_STEADY);
    zygote->idle[PW_SBX_PACE_RUNS - 1] = 0.001; /* one quick run: steady */
    ck_assert_int_eq(pw_sbx_pace(zygote), PW_SBX_PACE_STEADY);
    zygote->idle[PW_SBX_PACE_RUNS - 2] = 0;
    ck_assert_int_eq(pw_sbx_pace(zygote), PW_SBX_PACE_HURRIED);
    /* A run in flight when the next starts counts as no idle time. */
    paced_run(true);
    ck_assert_int_eq(zygote->inflight, 0);
    ck_assert(zygote->idle[PW_SBX_PACE_RUNS - 1] == 0);
    zygote->nstarts = 0;
}
END_TEST

START_TEST(spare_refilled_on_start)
{
    /* Asked to, a run forks its replacement as it starts; the new spare,
     * sent its request before it could warm up, serves it all the same. */
    pw_zygote_set_spares(zygote, 1);
    pw_zygote_refill_on_start(zygote, true);
    for (int i = 0; i < 5; i++) {
        pw_zygote_set_spares(zygote, 1); /* the last one received */
        ck_assert_int_eq(zygote->nspares, 1);
        pid_t old = zygote->spares[0]->pid;
        struct pw_sbx_run *r = start_code("print(7)", 0);
        ck_assert(r->on_spare);
        ck_assert_int_eq(r->pid, old);
        ck_assert_int_eq(zygote->nspares, 0);
        ck_assert_int_eq(zygote->nasked, 1); /* its replacement */
        json_auto_t *res = finish_run(r);
        ck_assert_str_eq(field(res, "stdout"), "7\n");
        pw_sbx_free(r);
    }
    /* Off (the default): a run takes a spare and forks none. */
    pw_zygote_refill_on_start(zygote, false);
    pw_zygote_set_spares(zygote, 1);
    struct pw_sbx_run *r = start_code("print(8)", 0);
    ck_assert(r->on_spare);
    ck_assert_int_eq(pool_count(), 0);
    json_auto_t *res = finish_run(r);
    ck_assert_str_eq(field(res, "stdout"), "8\n");
    pw_sbx_free(r);
    /* On, a start tops the pool up: a run that found it empty (the runs
     * before took every spare) leaves two asked for, not one. */
    pw_zygote_set_spares(zygote, 2);
    struct pw_sbx_run *a = start_code("print(1)", 0);
    struct pw_sbx_run *b = start_code("print(2)", 0);
    ck_assert_int_eq(pool_count(), 0);
    pw_zygote_refill_on_start(zygote, true);
    struct pw_sbx_run *c = start_code("print(3)", 0);
    ck_assert(!c->on_spare);
    ck_assert_int_eq(zygote->nspares + zygote->nasked, 2);
    struct pw_sbx_run *runs[] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        json_auto_t *out = finish_run(runs[i]);
        char want[8];
        snprintf(want, sizeof(want), "%d\n", i + 1);
        ck_assert_str_eq(field(out, "stdout"), want);
        pw_sbx_free(runs[i]);
    }
    pw_zygote_refill_on_start(zygote, false);
    pw_zygote_set_spares(zygote, 2);
    ck_assert_uint_eq(pw_zygote_reap(zygote, true), 0);
}
END_TEST

/* --- the mount namespace step, in a plain forked child --------------- */

/* Plant a file in DIR; its path in OUT, "" if DIR is not writable. */
static void
plant(const char *dir, char *out, size_t n)
{
    snprintf(out, n, "%s/pyward-planted.XXXXXX", dir);
    int fd = mkstemp(out);
    if (fd < 0) {
        out[0] = '\0';
        return;
    }
    ck_assert_int_eq(write(fd, "secret\n", 7), 7);
    close(fd);
}

/* Entries of DIR but . and ..; -1 if it cannot be read. */
static int
count_entries(const char *dir, const char *only)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            n += only == NULL || strcmp(e->d_name, only) != 0 ? 1 : 0;
        }
    }
    closedir(d);
    return n;
}

/* /proc shows the process itself and nothing of the host; /sys is empty. */
static int
proc_checks(void)
{
    if (count_entries("/proc", "self") != 0 ||
        count_entries("/sys", NULL) != 0) {
        return 24;
    }
    if (access("/proc/1/cmdline", F_OK) == 0 || errno != ENOENT ||
        access("/proc/meminfo", F_OK) == 0) {
        return 25;
    }
    char line[128];
    long pid = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "Pid:", 4) == 0) {
            pid = strtol(line + 4, NULL, 10);
        }
    }
    if (f == NULL || fclose(f) != 0 || pid != (long)getpid()) {
        return 26;
    }
    if (count_entries("/proc/self/fd", NULL) <= 0) {
        return 27;
    }
    /* The binary's host path does not show through its link. */
    char exe[PATH_MAX];
    if (readlink("/proc/self/exe", exe, sizeof(exe)) >= 0 || errno != EINVAL) {
        return 28;
    }
    snprintf(line, sizeof(line), "/proc/self/task/%ld/exe", pid);
    return readlink(line, exe, sizeof(exe)) < 0 && errno == EINVAL ? 0 : 29;
}

/* With a UTS namespace of its own, the run sees a neutral host name. */
static int
uts_checks(const struct pw_sbx_layers *l)
{
    char name[256];
    if (!l->userns) {
        return 0;
    }
    if (gethostname(name, sizeof(name)) < 0 ||
        strcmp(name, PW_SBX_HOSTNAME) != 0) {
        return 30;
    }
    return 0;
}

/* The checks, in the child after the steps; the exit code names the first
 * one that failed. */
static int
view_checks(const char *scratch, char planted[][512], size_t np)
{
    for (size_t i = 0; i < np; i++) {
        if (planted[i][0] != '\0' &&
            (access(planted[i], F_OK) == 0 || errno != ENOENT)) {
            return 10 + (int)i;
        }
    }
    DIR *d = opendir(tmp_root); /* only the scratch dir shows */
    const char *base = strrchr(scratch, '/') + 1;
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.' && strcmp(e->d_name, base) != 0) {
            return 20;
        }
    }
    if (d == NULL || closedir(d) < 0 || access("/etc/passwd", F_OK) == 0 ||
        access("/usr/lib/python3.11/os.py", R_OK) < 0) {
        return 21;
    }
    if (mkdir("/usr/pyward-rw", 0700) == 0 || errno != EROFS ||
        mkdir("/tmp/pyward-rw", 0700) == 0 || errno != EROFS) {
        return 22;
    }
    char path[600];
    snprintf(path, sizeof(path), "%s/written", scratch);
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs("from the child\n", f) < 0 || fclose(f) != 0) {
        return 23;
    }
    return proc_checks();
}

/* The child PID ended with status 0. */
static void
child_succeeded(pid_t pid)
{
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 0);
}

/* Run the steps of L in a child with files planted around SCRATCH. */
static void
check_view(const struct pw_sbx_layers *l)
{
    char planted[3][512];
    const char *home = getenv("HOME");
    plant("/tmp", planted[0], sizeof(planted[0]));
    plant(tmp_root, planted[1], sizeof(planted[1]));
    plant(home != NULL && *home == '/' ? home : "/root", planted[2],
          sizeof(planted[2]));
    ck_assert(planted[0][0] != '\0' && planted[1][0] != '\0');
    char scratch[512];
    snprintf(scratch, sizeof(scratch), "%s/pyward-run.XXXXXX", tmp_root);
    ck_assert_ptr_nonnull(mkdtemp(scratch));
    ck_assert(!l->root || chown(scratch, 65534, 65534) == 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        const char *what = "?";
        if (pw_sbx_checklist_ns(l, scratch, false, &what) < 0) {
            fprintf(stderr, "%s: %s\n", what, strerror(errno));
            _exit(1);
        }
        int rc = view_checks(scratch, planted, 3);
        _exit(rc != 0 ? rc : uts_checks(l));
    }
    child_succeeded(pid);
    /* The child wrote to the real scratch dir; the planted files stay. */
    char path[600];
    snprintf(path, sizeof(path), "%s/written", scratch);
    ck_assert_int_eq(access(path, F_OK), 0);
    for (size_t i = 0; i < 3; i++) {
        ck_assert(planted[i][0] == '\0' || access(planted[i], F_OK) == 0);
        (void)(planted[i][0] != '\0' ? unlink(planted[i]) : 0);
    }
    (void)unlink(path);
    ck_assert_int_eq(rmdir(scratch), 0);
}

START_TEST(mount_namespace_view)
{
    struct pw_sbx_layers l;
    pw_sbx_layers_probe(&l);
    pw_sbx_checklist_probe(&l, tmp_root);
    if (!l.mounts.active && !l.userns && !l.root) {
        fprintf(stderr, "# mount namespace inactive: %s\n", l.mounts.why);
        pw_sbx_layers_clear(&l);
        return;
    }
    ck_assert_msg(l.mounts.active, "%s", l.mounts.why);
    json_auto_t *layers = pw_zygote_layers_json(zygote);
    ck_assert(json_is_true(json_object_get(
        json_object_get(layers, "mount_namespace"), "active")));
    check_view(&l);
    if (l.root && l.userns) {
        /* Root on a host without user namespaces: the view is made
         * before the uid drop. */
        l.userns = l.netns_unshare = false;
        pw_sbx_checklist_probe(&l, tmp_root);
        ck_assert_msg(l.mounts.active && l.mounts.early, "%s", l.mounts.why);
        check_view(&l);
    }
    pw_sbx_layers_clear(&l);
}
END_TEST

/* The child of view_scratch_empty: the steps on SCRATCH (absent from the
 * host), then 0 if it is the cwd and refuses a new file at the mount
 * level (EROFS: no audit hook, landlock or seccomp is involved here). */
static int
empty_scratch_child(const struct pw_sbx_layers *l, const char *scratch)
{
    const char *what = "?";
    pw_sbx_mountns_workspace(PW_SBX_WS_EMPTY, 0);
    if (pw_sbx_checklist_ns(l, scratch, false, &what) < 0) {
        fprintf(stderr, "%s: %s\n", what, strerror(errno));
        return 1;
    }
    if (chdir(scratch) < 0) {
        return 2;
    }
    int fd = open("planted", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EROFS) {
        return 3;
    }
    return mkdir("d", 0755) == 0 || errno != EROFS ? 4 : 0;
}

START_TEST(view_scratch_empty)
{
    struct pw_sbx_layers l;
    pw_sbx_layers_probe(&l);
    pw_sbx_checklist_probe(&l, tmp_root);
    if (!l.mounts.active) {
        fprintf(stderr, "# mount namespace inactive: %s\n", l.mounts.why);
        pw_sbx_layers_clear(&l);
        return;
    }
    ck_assert(l.mounts.tmp_covered);
    char scratch[600];
    snprintf(scratch, sizeof(scratch), "%s/pyward-run", tmp_root);
    ck_assert_int_ne(access(scratch, F_OK), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        _exit(empty_scratch_child(&l, scratch));
    }
    child_succeeded(pid);
    /* Made in the view alone: nothing appeared on the host. */
    ck_assert_int_ne(access(scratch, F_OK), 0);
    pw_sbx_layers_clear(&l);
}
END_TEST

/* In a child that joined the shared view (through the same steps as a
 * spare, up to the uid drop and its own user namespace; no seccomp or
 * landlock here): attacks on the view, each of which must fail at the
 * mount level; 0 when all did.  With ROUND 1 it then mounts over the
 * view in a copy of its own, which a later joiner must not see. */
static int
shared_view_child(const struct pw_sbx_layers *l, const char *scratch,
                  int round)
{
    const char *what = "?";
    pw_sbx_mountns_workspace(PW_SBX_WS_EMPTY, 0);
    pw_sbx_mountns_hold(&l->mounts);
    if (pw_sbx_mountns_keep(&l->mounts, 100) != 102 ||
        pw_sbx_checklist_ns(l, scratch, false, &what) < 0) {
        fprintf(stderr, "%s: %s\n", what, strerror(errno));
        return 1;
    }
    if (fcntl(100, F_GETFD) >= 0 || fcntl(101, F_GETFD) >= 0) {
        return 2; /* the kept fds are closed once used */
    }
    if (chdir(scratch) < 0 || count_entries(".", NULL) != 0 ||
        count_entries("/proc", NULL) != 0 ||
        access("/etc/passwd", F_OK) == 0 ||
        access("/usr/lib/python3.11/os.py", R_OK) < 0) {
        return 3;
    }
    static const char *const targets[] = {
        "left", "/tmp/left", "/left", "/proc/left", "/etc/left", "/usr/left"};
    for (size_t i = 0; i < PW_N_ELEMENTS(targets); i++) {
        int fd = open(targets[i], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        if (fd >= 0 || (errno != EROFS && errno != EACCES)) {
            return 10 + (int)i;
        }
    }
    /* Its user namespace gives it no privilege over the shared view
     * (the host's): no mount, remount or unmount there. */
    if (mount("tmpfs", "/tmp", "tmpfs", 0, "size=16k") == 0 ||
        mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL) == 0 ||
        umount2("/tmp", MNT_DETACH) == 0) {
        return 20;
    }
    if (round == 1) {
        /* A copy of its own it may change: the shared one stays. */
        if (unshare(CLONE_NEWNS) < 0 ||
            mount("tmpfs", "/tmp", "tmpfs", 0, "size=16k") < 0) {
            return 21;
        }
        int fd = open("/tmp/left", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        if (fd < 0) {
            return 22;
        }
        close(fd);
    } else if (access("/tmp/left", F_OK) == 0 || errno != ENOENT) {
        return 23;
    }
    return 0;
}

/* A child still root that joins the shared view: read-only at the mount
 * level, root or not (EROFS where a run would get EACCES first). */
static int
shared_view_root_child(const struct pw_sbx_layers *l, const char *scratch)
{
    if (setns(l->mounts.shared_fd, CLONE_NEWNS) < 0 || chdir(scratch) < 0) {
        return 1;
    }
    static const char *const targets[] = {"left", "/tmp/left", "/left",
                                          "/proc/left", "/etc/left"};
    for (size_t i = 0; i < PW_N_ELEMENTS(targets); i++) {
        int fd = open(targets[i], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EROFS) {
            return 10 + (int)i;
        }
    }
    return 0;
}

START_TEST(shared_view_attacks)
{
    struct pw_sbx_layers l;
    pw_sbx_layers_probe(&l);
    pw_sbx_checklist_probe(&l, tmp_root);
    char scratch[600];
    snprintf(scratch, sizeof(scratch), "%s/pyward-run", tmp_root);
    if (l.root) {
        pw_sbx_mountns_share(&l.mounts, scratch);
    }
    if (!l.mounts.shared) {
        fprintf(stderr, "# no shared view (needs root): %s\n", l.mounts.why);
        ck_assert(!l.root || !l.mounts.active || !l.mounts.tmp_covered);
        pw_sbx_layers_clear(&l);
        return;
    }
    ck_assert_ptr_nonnull(strstr(l.mounts.why, "share one such view"));
    for (int round = 0; round <= 2; round++) {
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            _exit(round == 0 ? shared_view_root_child(&l, scratch)
                             : shared_view_child(&l, scratch, round));
        }
        child_succeeded(pid);
    }
    /* Made in the view alone: nothing appeared on the host. */
    ck_assert_int_ne(access(scratch, F_OK), 0);
    pw_sbx_layers_clear(&l);
}
END_TEST

START_TEST(runs_make_no_host_dirs)
{
    /* The default profiles write no files: their runs' scratch directory
     * exists in their view alone. */
    ck_assert_uint_eq(pw_zygote_reap(zygote, true), 0);
    json_auto_t *layers = pw_zygote_layers_json(zygote);
    if (!json_is_true(json_object_get(
            json_object_get(layers, "mount_namespace"), "active"))) {
        return;
    }
    for (int i = 0; i < 5; i++) {
        json_auto_t *r = run_code("print(1)", "", 10);
        ck_assert_str_eq(field(r, "status"), "ok");
        ck_assert_int_eq(count_scratch_dirs(), 0);
    }
}
END_TEST

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)(flag == FTW_DP ? rmdir(path) : unlink(path));
    return 0;
}

/* In each forked test process: spares of its own (the main process's
 * would not be its children, and it would hold their pipes' ends). */
static void
pool_setup(void)
{
    /* Each test runs in a process of its own (Check forks): runs must be
     * children of the process that observes them. */
    struct pw_error err = {0};
    ck_assert_msg(pw_zygote_adopt(zygote, &err) == 0, "%s", err.message);
    pw_zygote_set_spares(zygote, 2);
}

static Suite *
sandbox_suite(void)
{
    Suite *s = suite_create("sandbox");
    TCase *tf = tcase_create("filter");
    tcase_add_test(tf, filter_refuses_escapes);
    tcase_add_test(tf, filter_soft_denials_and_allowed);
    tcase_add_test(tf, filter_pid_calls_self_only);
    tcase_add_test(tf, filter_network_outbound_only);
    tcase_add_test(tf, filter_kills_other_abis);
    tcase_add_test(tf, path_policy);
    suite_add_tcase(s, tf);
    TCase *tg = tcase_create("fork gate");
    tcase_add_test(tg, fork_gate_admits_only_the_new_clone);
    suite_add_tcase(s, tg);
    TCase *tv = tcase_create("verdict");
    tcase_add_test(tv, verdict_ignores_forged_reports);
    tcase_add_test(tv, verdict_checks_report_fields);
    tcase_add_test(tv, verdict_refused_call_observed);
    tcase_add_test(tv, verdict_hook_altered_observed);
    suite_add_tcase(s, tv);
    TCase *tr = tcase_create("runs");
    tcase_set_timeout(tr, 120);
    tcase_add_checked_fixture(tr, pool_setup, NULL);
    tcase_add_test(tr, run_result_fields);
    tcase_add_test(tr, run_files_by_fd);
    tcase_add_test(tr, hook_check_reads_the_run);
    tcase_add_test(tr, run_loads_compiled_code);
    tcase_add_test(tr, zygote_compiler_first);
    tcase_add_test(tr, blob_is_the_guards_compile);
    tcase_add_test(tr, blob_over_the_test_programs);
    tcase_add_test(tr, run_error_trimmed);
    tcase_add_test(tr, run_reseeded);
    tcase_add_test(tr, run_stdin_large);
    tcase_add_test(tr, run_timeout_and_cancel);
    tcase_add_test(tr, run_output_cap);
    tcase_add_test(tr, run_concurrent);
    tcase_add_test(tr, no_leaks_after_200_runs);
    tcase_add_test(tr, environment_scrubbed);
    tcase_add_test(tr, spare_prepared_before_request);
    tcase_add_test(tr, spare_run_has_every_layer);
    tcase_add_test(tr, spare_refuses_other_requests);
    tcase_add_test(tr, spare_prepared_for_network);
    tcase_add_test(tr, workspace_counts_in_memory);
    tcase_add_test(tr, workspace_needs_room_in_memory);
    tcase_add_test(tr, spare_refuses_other_workspace_size);
    tcase_add_test(tr, zygote_beside_shares_the_host);
    tcase_add_test(tr, zygote_beside_holds_its_own_fds);
    tcase_add_test(tr, spare_dead_is_discarded);
    tcase_add_test(tr, spare_cancel_kills);
    tcase_add_test(tr, spare_usage_is_the_runs);
    tcase_add_test(tr, spare_pool_size);
    tcase_add_test(tr, spare_refilled_on_start);
    tcase_add_test(tr, pace_tells_pauses);
    tcase_add_test(tr, batch_refills_on_start);
    tcase_add_test(tr, queue_takes_turns);
    tcase_add_test(tr, queue_group_free_kills);
    tcase_add_test(tr, mount_namespace_view);
    tcase_add_test(tr, view_scratch_empty);
    tcase_add_test(tr, shared_view_attacks);
    tcase_add_test(tr, runs_make_no_host_dirs);
    suite_add_tcase(s, tr);
    return s;
}

int
main(void)
{
    struct pw_error err = {0};
    PW_AUTOFREE char *rules = pw_rules_dir(NULL);
    struct pw_sbx_policy policy;
    filter = pw_sbx_filter_load(rules, &policy, &err);
    profiles = filter ? pw_profiles_load(rules, &err) : NULL;
    if (profiles == NULL || pw_py_init(&err) < 0) {
        fprintf(stderr, "setup: %s\n", err.message);
        return 1;
    }
    imports.profiles = profiles;
    imports.mask = pw_profiles_default_mask(profiles);
    /* The zygote scrubs the environment: read Check's settings first. */
    SRunner *sr = srunner_create(sandbox_suite());
    const char *tap = getenv("CK_TAP_LOG_FILE_NAME");
    const char *verb = getenv("CK_VERBOSITY");
    enum print_output mode =
        verb != NULL && strcmp(verb, "silent") == 0 ? CK_SILENT : CK_NORMAL;
    /* Check keeps the name: copy it before the zygote wipes it. */
    char *tap_name = tap != NULL ? strdup(tap) : NULL;
    if (tap_name != NULL) {
        srunner_set_tap(sr, tap_name);
    }
    /* Scratch dirs go to a directory of this test only. */
    if (mkdtemp(tmp_root) == NULL || chmod(tmp_root, 0755) < 0 ||
        setenv("TMPDIR", tmp_root, 1) < 0) {
        perror(tmp_root);
        return 1;
    }
    setenv("PYWARD_SPARES", "0", 1); /* pool_setup makes them */
    zygote = pw_zygote_new(profiles, imports.mask, &err);
    if (zygote == NULL) {
        fprintf(stderr, "zygote: %s\n", err.message);
        return 1;
    }
    srunner_run_all(sr, mode);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    free(tap_name);
    pw_zygote_free(zygote);
    /* Spares of the forked test processes ended with them (their request
     * pipes closed). */
    (void)nftw(tmp_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    pw_sbx_filter_free(filter);
    pw_profiles_free(profiles);
    return failed == 0 ? 0 : 1;
}
