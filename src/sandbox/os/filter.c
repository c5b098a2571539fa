/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * filter.c - compile rules/seccomp.json with libseccomp in the parent,
 * export the BPF, install it in the child with one prctl (nsjail style).
 *
 * A refused call never runs: the kernel stops the child in it and
 * notifies the listener (SECCOMP_RET_USER_NOTIF), which the child hands to
 * its parent before any user code runs and closes.  The parent reads the
 * call's number from the kernel and kills the child: the verdict and the
 * call's name are what the parent observed, and no handler in the child
 * can catch or forge them.  One call goes the same way on purpose:
 * exit_group, so the parent learns the exit status from the kernel before
 * the process's teardown; it is the only call ever let through.  Without
 * a listener (the parent gone) a refused call fails with ENOSYS.  Other
 * ABIs (32-bit, x32) kill the process outright.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <jansson.h>
#include <seccomp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/seccomp.h>
#include <unistd.h>

#include "core/json.h"
#include "sandbox/os/filter.h"
#include "core/util.h"

#define SYSCALL_NAMES_MAX 512

struct pw_sbx_filter {
    struct sock_fprog prog[2]; /* [0] no network, [1] network */
    int count;
};

static char *syscall_names[SYSCALL_NAMES_MAX];

static void
names_init(void)
{
    if (syscall_names[0] != NULL) {
        return;
    }
    for (int nr = 0; nr < SYSCALL_NAMES_MAX; nr++) {
        syscall_names[nr] =
            seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
    }
}

const char *
pw_sbx_syscall_name(int nr)
{
    if (nr < 0 || nr >= SYSCALL_NAMES_MAX) {
        return NULL;
    }
    return syscall_names[nr];
}

static int
resolve(const char *name, const char *file, struct pw_error *err)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) {
        return pw_fail(err, PW_ERR_INPUT, "%s: unknown system call '%s'", file,
                       name);
    }
    return nr;
}

static int
add_names(scmp_filter_ctx ctx, json_t *arr, const char *file, int *count,
          struct pw_error *err)
{
    if (!json_is_array(arr)) {
        return pw_fail(err, PW_ERR_INPUT, "%s: an allow list is missing",
                       file);
    }
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        const char *name = json_string_value(v);
        int nr = name != NULL ? resolve(name, file, err) : -1;
        if (nr < 0) {
            return pw_fail(err, PW_ERR_INPUT, "%s: bad allow entry %zu%s%s",
                           file, i, name ? ": " : "", name ? name : "");
        }
        int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
        if (rc < 0) {
            return pw_fail(err, PW_ERR_SANDBOX, "%s: seccomp_rule_add %s: %s",
                           file, name, strerror(-rc));
        }
        (*count)++;
    }
    return 0;
}

static int
check_keys(json_t *obj, const char *const *keys, const char *file,
           struct pw_error *err)
{
    const char *key = pw_json_unknown_key(obj, keys, SIZE_MAX);
    if (key != NULL) {
        return pw_fail(err, PW_ERR_INPUT, "%s: unknown key '%s'", file, key);
    }
    return 0;
}

static int
rule_action(const char *action, uint32_t *out)
{
    static const struct {
        const char *name;
        int err;
    } errnos[] = {{"ENOSYS", ENOSYS}, {"EPERM", EPERM},   {"ENOTTY", ENOTTY},
                  {"EACCES", EACCES}, {"EINVAL", EINVAL}, {"ENOMEM", ENOMEM},
                  {"ESRCH", ESRCH}};
    if (strcmp(action, "allow") == 0) {
        *out = SCMP_ACT_ALLOW;
        return 0;
    }
    for (size_t i = 0; i < PW_N_ELEMENTS(errnos); i++) {
        if (strcmp(action, errnos[i].name) == 0) {
            *out = SCMP_ACT_ERRNO(errnos[i].err);
            return 0;
        }
    }
    return -1;
}

static int
rule_cmp(json_t *r, struct scmp_arg_cmp *cmp)
{
    json_t *arg = json_object_get(r, "arg");
    const char *op = json_string_value(json_object_get(r, "op"));
    json_t *value = json_object_get(r, "value");
    json_t *mask = json_object_get(r, "mask");
    if (!json_is_integer(arg) || json_integer_value(arg) < 0 ||
        json_integer_value(arg) > 5 || op == NULL || !json_is_integer(value)) {
        return -1;
    }
    cmp->arg = (unsigned)json_integer_value(arg);
    cmp->datum_a = (scmp_datum_t)json_integer_value(value);
    cmp->datum_b = 0;
    if (strcmp(op, "eq") == 0) {
        cmp->op = SCMP_CMP_EQ;
    } else if (strcmp(op, "ne") == 0) {
        cmp->op = SCMP_CMP_NE;
    } else if (strcmp(op, "masked_eq") == 0 && json_is_integer(mask)) {
        cmp->op = SCMP_CMP_MASKED_EQ;
        cmp->datum_a = (scmp_datum_t)json_integer_value(mask);
        cmp->datum_b = (scmp_datum_t)json_integer_value(value);
    } else {
        return -1;
    }
    return 0;
}

static int
add_rule(scmp_filter_ctx ctx, json_t *r, bool network, const char *file,
         int *count, struct pw_error *err)
{
    static const char *const keys[] = {"syscall", "action", "arg", "op",
                                       "value",   "mask",   "cap", NULL};
    if (!json_is_object(r) || check_keys(r, keys, file, err) < 0) {
        return pw_fail(err, PW_ERR_INPUT, "%s: bad rule", file);
    }
    const char *name = json_string_value(json_object_get(r, "syscall"));
    const char *action = json_string_value(json_object_get(r, "action"));
    const char *cap = json_string_value(json_object_get(r, "cap"));
    uint32_t act;
    if (name == NULL || action == NULL || rule_action(action, &act) < 0 ||
        (cap != NULL && strcmp(cap, "network") != 0)) {
        return pw_fail(err, PW_ERR_INPUT, "%s: bad rule for '%s'", file,
                       name ? name : "?");
    }
    if (cap != NULL && !network) {
        return 0;
    }
    int nr = resolve(name, file, err);
    if (nr < 0) {
        return -1;
    }
    struct scmp_arg_cmp cmp;
    bool cond = json_object_get(r, "arg") != NULL;
    if (cond && rule_cmp(r, &cmp) < 0) {
        return pw_fail(err, PW_ERR_INPUT, "%s: bad condition for '%s'", file,
                       name);
    }
    int rc = cond ? seccomp_rule_add_exact(ctx, act, nr, 1, cmp)
                  : seccomp_rule_add_exact(ctx, act, nr, 0);
    if (rc < 0) {
        return pw_fail(err, PW_ERR_SANDBOX, "%s: seccomp rule %s: %s", file,
                       name, strerror(-rc));
    }
    *count += act == SCMP_ACT_ALLOW;
    return 0;
}

static int
export_prog(scmp_filter_ctx ctx, struct sock_fprog *out, struct pw_error *err)
{
    PW_AUTOFD int fd = memfd_create("pyward-bpf", MFD_CLOEXEC);
    if (fd < 0) {
        return pw_fail_errno(err, PW_ERR_SANDBOX, "memfd_create");
    }
    int rc = seccomp_export_bpf(ctx, fd);
    if (rc < 0) {
        return pw_fail(err, PW_ERR_SANDBOX, "seccomp_export_bpf: %s",
                       strerror(-rc));
    }
    struct pw_buf b;
    pw_buf_init(&b);
    if (lseek(fd, 0, SEEK_SET) < 0 || pw_read_fd(fd, 0, &b, err) < 0) {
        pw_buf_free(&b);
        return pw_fail_errno(err, PW_ERR_SANDBOX, "reading the BPF");
    }
    size_t len;
    out->filter = (struct sock_filter *)pw_buf_take(&b, &len);
    out->len = (unsigned short)(len / sizeof(struct sock_filter));
    return 0;
}

static int
compile_one(json_t *root, bool network, const char *file,
            struct sock_fprog *out, int *count, struct pw_error *err)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_NOTIFY);
    if (ctx == NULL) {
        return pw_fail(err, PW_ERR_SANDBOX, "seccomp_init failed");
    }
    int rc =
        seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    /* A binary tree of syscall numbers: besides the checks it saves at
     * run time, the kernel's action cache, built when the filter is
     * attached (under a lock, by emulating it for every syscall number),
     * walks a few nodes per number instead of the whole list.  That
     * halved the install, on every run's way. */
    if (rc == 0) {
        rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
    }
    rc = rc < 0 ? pw_fail(err, PW_ERR_SANDBOX, "seccomp_attr_set: %s",
                          strerror(-rc))
                : add_names(ctx, json_object_get(root, "allow"), file, count,
                            err);
    if (rc == 0 && network) {
        rc = add_names(ctx, json_object_get(root, "network_allow"), file,
                       count, err);
    }
    size_t i;
    json_t *r;
    json_t *rules = json_object_get(root, "rules");
    if (rc == 0 && !json_is_array(rules)) {
        rc = pw_fail(err, PW_ERR_INPUT, "%s: 'rules' must be a list", file);
    }
    json_array_foreach(rules, i, r) {
        if (rc == 0) {
            rc = add_rule(ctx, r, network, file, count, err);
        }
    }
    if (rc == 0) {
        rc = export_prog(ctx, out, err);
    }
    seccomp_release(ctx);
    return rc;
}

static int
get_ll(json_t *obj, const char *key, long long *out, const char *file,
       struct pw_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: '%s' must be a non-negative integer", file, key);
    }
    *out = json_integer_value(v);
    return 0;
}

static int
load_workspace(json_t *ws, struct pw_sbx_policy *p, const char *file,
               struct pw_error *err)
{
    static const char *const keys[] = {
        "max_bytes",         "max_files",          "output_files",
        "output_file_bytes", "output_total_bytes", NULL};
    if (!json_is_object(ws) || check_keys(ws, keys, file, err) < 0) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: a 'workspace' object is required", file);
    }
    if (get_ll(ws, "max_bytes", &p->workspace_bytes, file, err) < 0 ||
        get_ll(ws, "max_files", &p->workspace_files, file, err) < 0 ||
        get_ll(ws, "output_files", &p->output_files, file, err) < 0 ||
        get_ll(ws, "output_file_bytes", &p->output_file_bytes, file, err) <
            0 ||
        get_ll(ws, "output_total_bytes", &p->output_total_bytes, file, err) <
            0) {
        return -1;
    }
    return 0;
}

static int
load_policy(json_t *root, struct pw_sbx_policy *p, const char *file,
            struct pw_error *err)
{
    static const char *const rkeys[] = {"nofile",        "fsize", "nproc",
                                        "session_nproc", "core",  "memlock",
                                        "stack",         NULL};
    static const char *const dkeys[] = {"timeout", "memory", "max_output",
                                        NULL};
    json_t *rl = json_object_get(root, "rlimits");
    json_t *df = json_object_get(root, "defaults");
    long long t = 0;
    if (!json_is_object(rl) || !json_is_object(df) ||
        check_keys(rl, rkeys, file, err) < 0 ||
        check_keys(df, dkeys, file, err) < 0) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: 'rlimits' and 'defaults' objects are required",
                       file);
    }
    if (get_ll(rl, "nofile", &p->nofile, file, err) < 0 ||
        get_ll(rl, "fsize", &p->fsize, file, err) < 0 ||
        get_ll(rl, "nproc", &p->nproc, file, err) < 0 ||
        get_ll(rl, "core", &p->core, file, err) < 0 ||
        get_ll(rl, "memlock", &p->memlock, file, err) < 0 ||
        get_ll(rl, "stack", &p->stack, file, err) < 0 ||
        get_ll(df, "timeout", &t, file, err) < 0 ||
        get_ll(df, "memory", &p->default_memory, file, err) < 0 ||
        get_ll(df, "max_output", &p->default_max_output, file, err) < 0) {
        return -1;
    }
    p->default_timeout = (double)t;
    /* Optional: without it a session cannot be forked. */
    p->session_nproc = p->nproc;
    if (json_object_get(rl, "session_nproc") != NULL &&
        get_ll(rl, "session_nproc", &p->session_nproc, file, err) < 0) {
        return -1;
    }
    /* The workspace tmpfs is memory the run's AS limit does not see: a
     * run's is sized from its own memory limit, at most half of it, and
     * counted in it (pw_sbx_workspace_bytes, pw_sbx_as_allowance). */
    return load_workspace(json_object_get(root, "workspace"), p, file, err);
}

struct pw_sbx_filter *
pw_sbx_filter_load(const char *rules_dir, struct pw_sbx_policy *policy,
                   struct pw_error *err)
{
    static const char *const keys[] = {"comment",       "allow",   "rules",
                                       "network_allow", "rlimits", "defaults",
                                       "workspace",     NULL};
    names_init();
    PW_AUTOFREE char *file = pw_xasprintf("%s/seccomp.json", rules_dir);
    json_auto_t *root = pw_json_load_file(file, err);
    if (root == NULL) {
        return NULL;
    }
    if (!json_is_object(root) || check_keys(root, keys, file, err) < 0 ||
        load_policy(root, policy, file, err) < 0) {
        return NULL;
    }
    struct pw_sbx_filter *f = pw_xcalloc(1, sizeof(*f));
    int unused = 0;
    if (compile_one(root, false, file, &f->prog[0], &f->count, err) < 0 ||
        compile_one(root, true, file, &f->prog[1], &unused, err) < 0) {
        pw_sbx_filter_free(f);
        return NULL;
    }
    return f;
}

void
pw_sbx_filter_free(struct pw_sbx_filter *f)
{
    if (f == NULL) {
        return;
    }
    free(f->prog[0].filter);
    free(f->prog[1].filter);
    free(f);
}

/* An owned copy of program P's instructions. */
static struct sock_filter *
prog_copy(const struct sock_fprog *p)
{
    size_t n = (size_t)p->len * sizeof(p->filter[0]);
    struct sock_filter *out = pw_xmalloc(n > 0 ? n : 1);
    if (n > 0) {
        memcpy(out, p->filter, n);
    }
    return out;
}

struct pw_sbx_filter *
pw_sbx_filter_copy(const struct pw_sbx_filter *f)
{
    struct pw_sbx_filter *c = pw_xcalloc(1, sizeof(*c));
    *c = *f;
    c->prog[0].filter = prog_copy(&f->prog[0]);
    c->prog[1].filter = prog_copy(&f->prog[1]);
    return c;
}

const struct sock_fprog *
pw_sbx_filter_prog(const struct pw_sbx_filter *f, bool network)
{
    return &f->prog[network ? 1 : 0];
}

int
pw_sbx_filter_count(const struct pw_sbx_filter *f)
{
    return f->count;
}

int
pw_sbx_filter_install(const struct sock_fprog *prog)
{
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                        SECCOMP_FILTER_FLAG_NEW_LISTENER, prog);
}

int
pw_sbx_notify_take(int listener, struct pw_sbx_notice *out)
{
    /* RECV waits for a notice: a session's copies share one listener,
     * and another copy's run may have taken the one poll saw. */
    struct pollfd p = {.fd = listener, .events = POLLIN};
    if (poll(&p, 1, 0) <= 0 || (p.revents & POLLIN) == 0) {
        return -1;
    }
    struct seccomp_notif n;
    memset(&n, 0, sizeof(n)); /* the kernel refuses a dirty buffer */
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &n) < 0) {
        return -1;
    }
    out->nr = n.data.nr; /* other ABIs were killed by the filter */
    out->arg0 = (long long)n.data.args[0];
    out->arg1 = (long long)n.data.args[1];
    out->pid = (pid_t)n.pid;
    out->id = n.id;
    return 0;
}

/* Let the call N stopped in go on.  Only calls whose arguments cannot
 * decide anything are ever let through (exit_group, clone without a
 * stack or tid pointers, setsid; and the chdir of a copy into its own
 * workspace, made by a single-threaded process whose landlock domain
 * decides what it may reach wherever it is): nothing can change between
 * the notice and the call that matters. */
static int
let_go(int listener, const struct pw_sbx_notice *n)
{
    struct seccomp_notif_resp r;
    memset(&r, 0, sizeof(r));
    r.id = n->id;
    r.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &r);
}

int
pw_sbx_notify_let_exit(int listener, const struct pw_sbx_notice *n)
{
    if (n->nr != SYS_exit_group) {
        errno = EPERM;
        return -1;
    }
    return let_go(listener, n);
}

int
pw_sbx_notify_let_copy(int listener, const struct pw_sbx_notice *n)
{
    bool clone = n->nr == SYS_clone && (n->arg0 == PW_SBX_FORK_FLAGS ||
                                        n->arg0 == PW_SBX_FORK_NS_FLAGS);
    if (!clone && n->nr != SYS_setsid && n->nr != SYS_chdir) {
        errno = EPERM;
        return -1;
    }
    return let_go(listener, n);
}

int
pw_sbx_notify_give_fd(int listener, const struct pw_sbx_notice *n, int fd,
                      int target)
{
    struct seccomp_notif_addfd a;
    memset(&a, 0, sizeof(a));
    a.id = n->id;
    a.flags = SECCOMP_ADDFD_FLAG_SETFD;
    a.srcfd = (unsigned)fd;
    a.newfd = (unsigned)target;
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a) == target ? 0 : -1;
}
