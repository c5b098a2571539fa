/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * family.c - the server's record of a session and its copies.
 *
 * The first copy of a session makes its PID 1 the family's init (copy.c):
 * the server's own child, which it kills and reaps once the last member
 * has gone, with the scratch directory the family shares.  The members
 * are sessions whose processes are not the server's children: they are
 * signalled through their pidfds (never by a pid that may have been
 * reused) and reaped by the init.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/session/family.h"
#include "sandbox/run/record.h"
#include "sandbox/session/record.h"
#include "sandbox/run/pipes.h"
#include "sandbox/run/scratch.h"

struct member {
    struct pw_sbx_session *s; /* borrowed */
    pid_t pid;
};

struct pw_sbx_family {
    struct pw_zygote *z;
    pid_t init;
    char *scratch; /* owned */
    struct member *members;
    size_t n, cap;
};

struct pw_sbx_family *
pw_sbx_family_new(struct pw_zygote *z, pid_t init, char *scratch)
{
    struct pw_sbx_family *f = pw_xcalloc(1, sizeof(*f));
    f->z = z;
    f->init = init;
    f->scratch = scratch;
    return f;
}

void
pw_sbx_family_add(struct pw_sbx_family *f, struct pw_sbx_session *s, pid_t pid)
{
    if (f->n == f->cap) {
        f->cap = f->cap != 0 ? 2 * f->cap : 4;
        f->members = pw_xrealloc(f->members, f->cap * sizeof(*f->members));
    }
    f->members[f->n++] = (struct member){s, pid};
}

void
pw_sbx_family_moved(struct pw_sbx_family *f, struct pw_sbx_session *s,
                    pid_t pid)
{
    for (size_t i = 0; i < f->n; i++) {
        if (f->members[i].s == s) {
            f->members[i].pid = pid;
        }
    }
}

void
pw_sbx_family_remove(struct pw_sbx_family *f, struct pw_sbx_session *s)
{
    for (size_t i = 0; i < f->n; i++) {
        if (f->members[i].s == s) {
            f->members[i] = f->members[--f->n];
            break;
        }
    }
    if (f->n > 0) {
        return;
    }
    (void)kill(-f->init, SIGKILL);
    (void)kill(f->init, SIGKILL);
    pw_sbx_reap_later(f->z, f->init, f->scratch);
    free(f->members);
    free(f);
}

char *
pw_sbx_family_dissolve(struct pw_sbx_family *f)
{
    char *scratch = f->scratch;
    free(f->members);
    free(f);
    return scratch;
}

const char *
pw_sbx_family_scratch(const struct pw_sbx_family *f)
{
    return f->scratch;
}

size_t
pw_sbx_family_size(const struct pw_sbx_family *f)
{
    return f->n;
}

struct pw_sbx_session *
pw_sbx_family_find(const struct pw_sbx_family *f, pid_t tid)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < f->n; i++) {
            if (f->members[i].pid == tid) {
                return f->members[i].s;
            }
        }
        /* A thread of a member: its group's leader. */
        tid = pw_sbx_proc_pid_field(tid, "Tgid:");
        if (tid <= 0) {
            break;
        }
    }
    return NULL;
}

pid_t
pw_sbx_proc_pid_field(pid_t pid, const char *key)
{
    char path[64];
    char buf[2048];
    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
    if (fd >= 0) {
        close(fd);
    }
    if (n <= 0) {
        return -1;
    }
    buf[n] = '\0';
    char line[32];
    snprintf(line, sizeof(line), "\n%s", key);
    const char *p = strstr(buf, line);
    return p != NULL ? (pid_t)strtol(p + strlen(line), NULL, 10) : -1;
}

int
pw_sbx_copy_channels(int server[4], int child[5], struct pw_error *err)
{
    int p[4][2];
    int ctl[2] = {-1, -1};
    if (pw_sbx_pipes_new(p, err) < 0 || pipe2(ctl, O_CLOEXEC) < 0) {
        int e = errno;
        pw_sbx_pipes_close(p, 0);
        pw_sbx_pipes_close(p, 1);
        return err->message[0] != '\0'
                   ? -1
                   : pw_fail(err, PW_ERR_SANDBOX, "pipe2: %s", strerror(e));
    }
    close(p[0][1]); /* a session has no stdin */
    int srv[] = {ctl[1], p[1][0], p[2][0], p[3][0]};
    int kid[] = {p[0][0], p[1][1], p[2][1], p[3][1], ctl[0]};
    for (int i = 0; i < 4; i++) {
        server[i] = srv[i];
        (void)pw_set_nonblock(srv[i], i != 0);
    }
    memcpy(child, kid, sizeof(kid));
    return 0;
}
