/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * hookcheck.c - read a run's audit hook from outside, after the run.
 *
 * In the data_science profile a program can read and write its own
 * process's memory (numpy views of any address: doc/SECURITY.md), and so
 * unlink the audit hook or change what it refuses.  The server, which
 * observes the run from another process, reads the run's memory once the
 * run has exited (stopped in exit_group) or a session's call has
 * reported, and compares the hook's state with what it must be: the
 * runtime's list of C hooks (_PyRuntime.audit_hook_head) holds exactly
 * audit.c's hook, audit.c's state says it is armed with the run's
 * capabilities, and its lists (one sealed read-only mapping) are those of
 * the zygote the run was forked from.  Every run is a fork of one image,
 * so these addresses are the server's own.
 *
 * This tells a hook left altered; a program that restores what it
 * changed before it exits is not seen.  The OS layers are the boundary.
 */
#include "config.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_runtime.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "sandbox/interp/audit.h"
#include "sandbox/interp/hookcheck.h"
#include "core/util.h"

/* LEN bytes at ADDR in process PID (this process when PID <= 0) into
 * DST.  0, or -1 with errno. */
static int
peek(pid_t pid, void *dst, const void *addr, size_t len)
{
    if (pid <= 0) {
        memcpy(dst, addr, len);
        return 0;
    }
    struct iovec local = {.iov_base = dst, .iov_len = len};
    struct iovec remote = {.iov_base = (void *)addr, .iov_len = len};
    ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n < 0) {
        return -1;
    }
    if ((size_t)n != len) {
        errno = EFAULT;
        return -1;
    }
    return 0;
}

int
pw_sbx_hookcheck_probe(pid_t ref)
{
    uintptr_t head;
    return peek(ref, &head, &_PyRuntime.audit_hook_head, sizeof(head));
}

/* The sealed mappings of PID and REF, LEN bytes at BLOCK: 1 equal, 0 not,
 * -1 unreadable. */
static int
same_block(pid_t pid, pid_t ref, const void *block, size_t len)
{
    PW_AUTOFREE char *a = pw_xmalloc(len);
    PW_AUTOFREE char *b = pw_xmalloc(len);
    if (peek(ref, b, block, len) < 0) {
        return -1;
    }
    if (peek(pid, a, block, len) < 0) {
        return errno == EFAULT ? 0 : -1;
    }
    return memcmp(a, b, len) == 0;
}

int
pw_sbx_hook_intact(pid_t pid, pid_t ref, unsigned caps)
{
    struct pw_sbx_audit_image im;
    pw_sbx_audit_image(&im);
    uintptr_t head;
    if (peek(pid, &head, &_PyRuntime.audit_hook_head, sizeof(head)) < 0) {
        return -1;
    }
    _Py_AuditHookEntry e;
    if (head == 0 || peek(pid, &e, (const void *)head, sizeof(e)) < 0) {
        return 0; /* unlinked, or linked to what is not an entry */
    }
    if (e.next != NULL || e.userData != NULL ||
        (uintptr_t)e.hookCFunction != im.hook) {
        return 0;
    }
    /* The run's copies as bytes (the program may have written any): the
     * same bytes as the zygote's, padding included, since the run is a
     * fork of it and neither changes them after the seal. */
    unsigned char armed;
    unsigned run_caps;
    unsigned char run[sizeof(struct pw_sbx_audit_lists)];
    unsigned char zy[sizeof(struct pw_sbx_audit_lists)];
    if (peek(pid, &armed, im.armed, sizeof(armed)) < 0 ||
        peek(pid, &run_caps, im.caps, sizeof(run_caps)) < 0 ||
        peek(pid, run, im.cfg, sizeof(run)) < 0 ||
        peek(ref, zy, im.cfg, sizeof(zy)) < 0) {
        return -1;
    }
    struct pw_sbx_audit_lists zygote;
    memcpy(&zygote, zy, sizeof(zygote));
    if (armed != 1 || run_caps != caps || memcmp(run, zy, sizeof(run)) != 0 ||
        zygote.block == NULL) {
        return 0;
    }
    return same_block(pid, ref, zygote.block, zygote.block_len);
}
