/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sandbox.c - the server's side of the executor: set up the warm
 * interpreter and start the zygote process (zygote.c), keep the pool
 * of prepared spares it forks, hand each request to a spare, reap.  The
 * poll-driven step (stdin feed, capped output, wall-clock timeout, the
 * seccomp listener) is in step.c.
 *
 * Defines pw_zygote_* and the run calls of sandbox.h not in step.c:
 * pw_sbx_start, pw_sbx_free (pw_sbx_reap is in scratch.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/rules.h"
#include "core/py.h"
#include "sandbox/os/checklist.h"
#include "sandbox/interp/guard.h"
#include "sandbox/run/record.h"
#include "sandbox/session/record.h"
#include "sandbox/os/limits.h"
#include "sandbox/run/output.h"
#include "sandbox/run/scratch.h"
#include "sandbox/run/spare.h"
#include "sandbox/run/step.h"
#include "sandbox/os/workspace.h"
#include "sandbox/run/wsfiles.h"
#include "sandbox/run/zygote.h"

/* Spares kept ready by default: one for the next request and one more
 * so that back-to-back requests on this 2-core class of host do not wait
 * for the refill (PYWARD_SPARES, 0 to 8, overrides). */
#define DEFAULT_SPARES 2

static int
probe_seccomp(const struct pw_zygote *z, struct pw_error *err)
{
    pid_t pid = fork();
    if (pid < 0) {
        return pw_fail_errno(err, PW_ERR_SANDBOX, "fork");
    }
    if (pid == 0) {
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
            _exit(1);
        }
        int listener =
            pw_sbx_filter_install(pw_sbx_filter_prog(z->filter, false));
        /* exit_group would wait for its own listener: end the only
         * thread instead. */
        (void)syscall(SYS_exit, listener < 0 ? 2 : 0);
        _exit(3);
    }
    int st = 0;
    if (PW_RETRY(waitpid(pid, &st, 0)) < 0 || !WIFEXITED(st) ||
        WEXITSTATUS(st) != 0) {
        return pw_fail(
            err, PW_ERR_SANDBOX, "%s cannot be installed on this host",
            WIFEXITED(st) && WEXITSTATUS(st) == 1 ? "no_new_privs"
                                                  : "the seccomp filter");
    }
    return 0;
}

static int
spares_from_env(void)
{
    const char *v = getenv("PYWARD_SPARES");
    if (v == NULL || *v == '\0') {
        return DEFAULT_SPARES;
    }
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (*end != '\0' || n < 0 || n > PW_SBX_SPARES_MAX) {
        pw_warn("PYWARD_SPARES=%s: not 0 to %d, using %d", v,
                PW_SBX_SPARES_MAX, DEFAULT_SPARES);
        return DEFAULT_SPARES;
    }
    return (int)n;
}

/* What the zygotes take from the environment, read once: the first
 * zygote's start scrubs it, and a server may start a second (the light
 * one, src/cli/serve.c) that must see the same. */
struct env_once {
    int spares;
    char *tmp_root;
    char *rules;
};

static const struct env_once *
env_once(void)
{
    static struct env_once e;
    if (e.rules == NULL) {
        e.spares = spares_from_env();
        const char *tmp = getenv("TMPDIR");
        e.tmp_root = pw_xstrdup(tmp != NULL && *tmp == '/' ? tmp : "/tmp");
        e.rules = pw_rules_dir(NULL);
    }
    return &e;
}

/* A new list of the imports of the N SOURCES, or NULL with ERR. */
static PyObject *
imports_of(const struct pw_sbx_source *sources, size_t n, struct pw_error *err)
{
    PW_PYAUTO PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && i < n; i++) {
        PW_PYAUTO PyObject *b = PyBytes_FromStringAndSize(
            sources[i].code, (Py_ssize_t)sources[i].len);
        if (b == NULL || PyList_Append(list, b) < 0) {
            Py_CLEAR(list);
        }
    }
    PyObject *names = list != NULL ? pw_sbx_guard_static_imports(list) : NULL;
    if (names == NULL) {
        pw_py_fetch_error(err);
    }
    return names;
}

/* How a zygote is made: warmed here or by its own process after it is
 * forked (BACKGROUND); limited to the imports of SOURCES; with the host
 * facts BESIDE probed, instead of probing them again. */
struct zy_how {
    bool background;
    const struct pw_sbx_source *sources;
    size_t nsources;
    const struct pw_zygote *beside;
};

/* The host facts of Z: the layers that work, the mount views, the PID
 * namespace.  Forks short-lived children. */
static void
probe_host(struct pw_zygote *z)
{
    pw_sbx_trees_set(z->profiles->paths, z->profiles->npaths);
    pw_sbx_layers_probe(&z->layers);
    z->layers.mounts.ws_bytes = z->policy.workspace_bytes;
    z->layers.mounts.ws_files = z->policy.workspace_files;
    pw_sbx_checklist_probe(&z->layers, z->tmp_root);
    if (z->layers.root) {
        pw_sbx_mountns_share(&z->layers.mounts, z->view_scratch);
    }
    pw_sbx_pidns_probe(z);
}

/* Z takes the host facts FROM probed (the same host, rules and temporary
 * directory), with fds of its own.  0, or -1 with ERR: Z would have
 * fewer layers than FROM. */
static int
copy_host(struct pw_zygote *z, const struct pw_zygote *from,
          struct pw_error *err)
{
    z->pidns = from->pidns;
    memcpy(z->pidns_why, from->pidns_why, sizeof(z->pidns_why));
    if (pw_sbx_layers_copy(&z->layers, &from->layers) < 0) {
        return pw_fail_errno(err, PW_ERR_SANDBOX,
                             "holding the namespaces of the first zygote");
    }
    return 0;
}

/* Z's seccomp filter and policy: loaded from RULES_DIR and installed once
 * in a throw-away child, or copied from HOW's zygote beside (the same
 * rules, installed there).  0, or -1 with ERR. */
static int
take_filter(struct pw_zygote *z, const struct zy_how *how,
            const char *rules_dir, struct pw_error *err)
{
    if (how->beside != NULL) {
        z->policy = how->beside->policy;
        z->filter = pw_sbx_filter_copy(how->beside->filter);
        return 0;
    }
    z->filter = pw_sbx_filter_load(rules_dir, &z->policy, err);
    return z->filter != NULL ? probe_seccomp(z, err) : -1;
}

static struct pw_zygote *
zygote_new(const struct pw_profiles *profiles, pw_profile_mask enabled,
           const struct zy_how *how, struct pw_error *err)
{
    if (pw_py_init(err) < 0) {
        return NULL;
    }
    /* A program may exit before reading its stdin: a write to its pipe
     * must fail with EPIPE, not kill the server. */
    (void)signal(SIGPIPE, SIG_IGN);
    struct pw_zygote *z = pw_xcalloc(1, sizeof(*z));
    z->zsock = -1;
    z->beside_sock = how->beside != NULL ? how->beside->zsock : -1;
    z->profiles = profiles;
    z->enabled = enabled;
    z->warming = true;
    z->background = how->background;
    z->layers.netns_fd = -1;
    const struct env_once *env = env_once();
    z->want_spares = env->spares;
    z->spare_caps = pw_profiles_caps(profiles, enabled) & PW_SBX_OS_CAPS;
    z->tmp_root = pw_xstrdup(env->tmp_root);
    z->view_scratch = pw_xasprintf("%s/pyward-run", z->tmp_root);
    if (take_filter(z, how, env->rules, err) < 0 ||
        (how->sources != NULL &&
         (z->only = imports_of(how->sources, how->nsources, err)) == NULL) ||
        (!how->background && pw_sbx_zygote_warm(z, err) < 0) ||
        pw_sbx_scrub_env(err) < 0) {
        pw_zygote_free(z);
        return NULL;
    }
    if (how->beside == NULL) {
        probe_host(z);
    } else if (copy_host(z, how->beside, err) < 0) {
        pw_zygote_free(z);
        return NULL;
    }
    /* The workspace's size follows the memory limit: spares are first
     * prepared for the default one. */
    z->spare_caps =
        pw_sbx_spare_key(z, z->spare_caps, z->policy.default_memory);
    /* Everything the zygote needs is ready (but, in the background, the
     * imports) and no request has been read: from here on, runs are
     * forked by the zygote process only. */
    z->owner = getpid();
    if (pw_sbx_zygote_start(z, err) < 0) {
        pw_zygote_free(z);
        return NULL;
    }
    /* One spare now for the first run; the rest when the caller is idle
     * (pw_zygote_refill), so a one-shot `pyward run` forks no more. */
    if (z->want_spares > 0) {
        (void)pw_sbx_zygote_ask(z, z->spare_caps);
    }
    return z;
}

struct pw_zygote *
pw_zygote_new(const struct pw_profiles *profiles, pw_profile_mask enabled,
              struct pw_error *err)
{
    const struct zy_how how = {0};
    return zygote_new(profiles, enabled, &how, err);
}

struct pw_zygote *
pw_zygote_new_for(const struct pw_profiles *profiles, pw_profile_mask enabled,
                  const struct pw_sbx_source *sources, size_t n,
                  struct pw_error *err)
{
    const struct zy_how how = {.sources = sources, .nsources = n};
    return zygote_new(profiles, enabled, &how, err);
}

struct pw_zygote *
pw_zygote_new_warming(const struct pw_profiles *profiles,
                      pw_profile_mask enabled, struct pw_error *err)
{
    const struct zy_how how = {.background = true};
    return zygote_new(profiles, enabled, &how, err);
}

struct pw_zygote *
pw_zygote_new_beside(const struct pw_zygote *first,
                     const struct pw_profiles *profiles,
                     pw_profile_mask enabled, struct pw_error *err)
{
    const struct zy_how how = {.background = true, .beside = first};
    return zygote_new(profiles, enabled, &how, err);
}

bool
pw_zygote_warming(const struct pw_zygote *z)
{
    return z->warming && z->zsock >= 0;
}

const char *
pw_zygote_error(const struct pw_zygote *z)
{
    return z->error[0] != '\0' ? z->error : NULL;
}

static void pool_drop_stale(struct pw_zygote *z);
static bool pool_add_one(struct pw_zygote *z);

/* Ask for spares until the pool (with those on their way) is full. */
static void
pool_fill(struct pw_zygote *z)
{
    pool_drop_stale(z);
    for (int tries = z->want_spares; tries > 0 && pw_zygote_short(z);
         tries--) {
        if (!pool_add_one(z)) {
            return;
        }
    }
}

/* Remove the spare at index I from the pool; returns it. */
static struct pw_sbx_spare *
pool_remove(struct pw_zygote *z, int i)
{
    struct pw_sbx_spare *s = z->spares[i];
    z->nspares--;
    for (int k = i; k < z->nspares; k++) {
        z->spares[k] = z->spares[k + 1];
    }
    return s;
}

/* Spares prepared for other capabilities than new ones get: freed. */
static void
pool_drop_stale(struct pw_zygote *z)
{
    for (int i = z->nspares - 1; i >= 0; i--) {
        if (z->spares[i]->caps != z->spare_caps) {
            pw_sbx_spare_free(z, pool_remove(z, i));
        }
    }
}

/* Take in one answer of the zygote (BLOCK: wait for it).  1 if one came,
 * 0 if none yet, -1 if the zygote is gone. */
static int
pool_receive(struct pw_zygote *z, bool block)
{
    struct pw_sbx_spare *s = NULL;
    int rc = pw_sbx_zygote_receive(z, block, &s);
    if (s != NULL && z->nspares < PW_SBX_POOL_MAX) {
        z->spares[z->nspares++] = s;
    } else if (s != NULL) {
        pw_sbx_spare_free(z, s);
    }
    return rc;
}

/* Every answer on its way, waiting for them. */
static void
pool_settle(struct pw_zygote *z)
{
    while (z->nasked > 0 && pool_receive(z, true) > 0) {
    }
}

/* Every answer already there, without waiting. */
static void
pool_collect(struct pw_zygote *z)
{
    while (pool_receive(z, false) > 0) {
    }
}

/* True if the dead spare S ended on a failed checklist step: its "E"
 * record is waiting on its result channel.  (One killed from outside has
 * none: another spare can serve the run.) */
static bool
failed_setup(const struct pw_sbx_spare *s)
{
    char buf[512];
    ssize_t n = recv(s->fds[3], buf, sizeof(buf) - 1, MSG_PEEK | MSG_DONTWAIT);
    if (n <= 0) {
        return false;
    }
    buf[n] = '\0';
    return buf[0] == 'E' || strstr(buf, "\nE") != NULL;
}

/* The oldest spare prepared for CAPS (the most likely to be ready), or
 * NULL.  A spare whose checklist failed is handed out all the same: the
 * run then reports that step's failure (fail closed, saying why) instead
 * of the pool forking spares that fail the same way. */
static struct pw_sbx_spare *
pool_take(struct pw_zygote *z, unsigned caps)
{
    for (int i = 0; i < z->nspares;) {
        if (z->spares[i]->caps != caps) {
            i++;
            continue;
        }
        struct pw_sbx_spare *s = pool_remove(z, i);
        if (pw_sbx_spare_alive(s) || failed_setup(s)) {
            return s;
        }
        /* Killed while it waited: never hand it a request. */
        pw_sbx_spare_free(z, s);
    }
    return NULL;
}

static bool
asked_for(const struct pw_zygote *z, unsigned caps)
{
    for (int i = 0; i < z->nasked; i++) {
        if (z->asked[i] == caps) {
            return true;
        }
    }
    return false;
}

/* Failed spares in a row after which a run no longer waits for the next
 * one: its start asks, and fails as spare_for does. */
#define SPARE_FAILS_MAX 4

bool
pw_zygote_spare_ready(struct pw_zygote *z, const struct pw_sbx_request *req)
{
    /* A zygote that is gone, or failed to fork its last spares: the start
     * tries, and says why it cannot. */
    if (pw_zygote_error(z) != NULL || pw_zygote_fd(z) < 0 ||
        z->spare_fails >= SPARE_FAILS_MAX) {
        return true;
    }
    long long memory = req->limits.memory_bytes > 0 ? req->limits.memory_bytes
                                                    : z->policy.default_memory;
    unsigned caps = pw_sbx_spare_key(z, req->caps, memory);
    /* The pool is kept for what runs ask, as pw_sbx_start would. */
    z->spare_caps = caps;
    pool_collect(z);
    for (int i = 0; i < z->nspares;) {
        struct pw_sbx_spare *s = z->spares[i];
        if (s->caps != caps) {
            i++;
        } else if (pw_sbx_spare_alive(s) || failed_setup(s)) {
            return true;
        } else {
            /* Killed while it waited: never hand it a request. */
            pw_sbx_spare_free(z, pool_remove(z, i));
        }
    }
    return !asked_for(z, caps) && pw_sbx_zygote_ask(z, caps) < 0;
}

/* A live spare prepared for CAPS: from the pool, else the next one the
 * zygote sends (asked for now if none is on its way).  NULL with ERR if
 * the zygote cannot give one. */
static struct pw_sbx_spare *
spare_for(struct pw_zygote *z, unsigned caps, struct pw_error *err)
{
    for (int tries = 0; tries < 4 * PW_SBX_POOL_MAX; tries++) {
        pool_collect(z);
        struct pw_sbx_spare *s = pool_take(z, caps);
        if (s != NULL) {
            return s;
        }
        if ((!asked_for(z, caps) && pw_sbx_zygote_ask(z, caps) < 0) ||
            pool_receive(z, true) < 0) {
            break;
        }
    }
    const char *why = pw_zygote_error(z);
    pw_fail(err, PW_ERR_SANDBOX, "%s",
            why != NULL ? why
                        : "the zygote process could not provide a prepared "
                          "child");
    return NULL;
}

void
pw_zygote_set_spares(struct pw_zygote *z, int n)
{
    z->want_spares = n < 0 ? 0 : n > PW_SBX_SPARES_MAX ? PW_SBX_SPARES_MAX : n;
    /* Every answer on its way first, so that the trim sees them all; then
     * the caller (start-up, tests) gets the pool it asked for. */
    pool_settle(z);
    while (z->nspares > z->want_spares) {
        pw_sbx_spare_free(z, z->spares[--z->nspares]);
    }
    pool_fill(z);
    pool_settle(z);
}

int
pw_zygote_spares(const struct pw_zygote *z)
{
    int ready = 0;
    for (int i = 0; i < z->nspares; i++) {
        ready += z->spares[i]->caps == z->spare_caps;
    }
    return ready;
}

bool
pw_zygote_short(const struct pw_zygote *z)
{
    int ready = 0;
    for (int i = 0; i < z->nspares; i++) {
        ready += z->spares[i]->caps == z->spare_caps;
    }
    for (int i = 0; i < z->nasked; i++) {
        ready += z->asked[i] == z->spare_caps;
    }
    return ready < z->want_spares;
}

int
pw_zygote_fd(const struct pw_zygote *z)
{
    return z->zsock;
}

void
pw_zygote_collect(struct pw_zygote *z)
{
    pool_collect(z);
}

bool
pw_zygote_refill_on_start(struct pw_zygote *z, bool on)
{
    bool was = z->refill_on_start;
    z->refill_on_start = on;
    return was;
}

/* One spare more asked for if the pool is short; false if the zygote
 * cannot take the request. */
static bool
pool_add_one(struct pw_zygote *z)
{
    pool_collect(z);
    pool_drop_stale(z);
    if (pw_zygote_short(z) && z->nspares + z->nasked < PW_SBX_POOL_MAX) {
        return pw_sbx_zygote_ask(z, z->spare_caps) == 0;
    }
    return true;
}

bool
pw_zygote_refill(struct pw_zygote *z)
{
    (void)pw_sbx_reap(z, false);
    if (!pool_add_one(z)) {
        return false; /* tried again at the next idle moment */
    }
    return pw_zygote_short(z);
}

size_t
pw_zygote_reap(struct pw_zygote *z, bool wait)
{
    return pw_sbx_reap(z, wait);
}

void
pw_zygote_free(struct pw_zygote *z)
{
    if (z == NULL) {
        return;
    }
    pw_zygote_set_spares(z, 0); /* the answers on their way too */
    pw_sbx_zygote_stop(z);
    (void)pw_sbx_reap(z, true);
    free(z->reap);
    pw_sbx_filter_free(z->filter);
    pw_sbx_layers_clear(&z->layers);
    free(z->missing);
    if (z->only != NULL && pw_py_initialized()) {
        Py_DECREF((PyObject *)z->only);
    }
    free(z->tmp_root);
    free(z->view_scratch);
    free(z);
}

int
pw_zygote_adopt(struct pw_zygote *z, struct pw_error *err)
{
    for (int i = 0; i < z->nspares; i++) {
        struct pw_sbx_spare *s = z->spares[i];
        int fds[] = {s->pidfd,  s->ctl,    s->fds[0],  s->fds[1],
                     s->fds[2], s->fds[3], s->stat_fd, s->status_fd};
        for (size_t k = 0; k < PW_N_ELEMENTS(fds); k++) {
            if (fds[k] >= 0) {
                close(fds[k]);
            }
        }
        free(s->scratch);
        free(s);
    }
    z->nspares = 0;
    z->nasked = 0;
    for (size_t i = 0; i < z->nreap; i++) {
        free(z->reap[i].scratch);
    }
    z->nreap = 0;
    if (z->zsock >= 0) {
        close(z->zsock);
    }
    z->zsock = -1;
    z->zpid = 0;
    z->owner = getpid();
    /* Imports made by the old zygote process are not in this one. */
    z->warming = z->background;
    return pw_sbx_zygote_start(z, err);
}

static int
add_layer(json_t *obj, const char *name, bool active, const char *detail)
{
    return json_object_set_new(
        obj, name, json_pack("{s:b,s:s}", "active", active, "detail", detail));
}

json_t *
pw_zygote_layers_json(const struct pw_zygote *z)
{
    json_auto_t *obj = json_object();
    char sc[160], rl[200];
    snprintf(sc, sizeof(sc),
             "allow-list of %d system calls (rules/seccomp.json); others "
             "never run: the server is notified and kills the program; "
             "32-bit/x32 ABIs killed",
             pw_sbx_filter_count(z->filter));
    snprintf(rl, sizeof(rl),
             "CPU, AS (+%lld MiB zygote base), FSIZE %lld, NOFILE %lld, "
             "NPROC %lld, CORE 0, MEMLOCK 0",
             z->as_base >> 20, z->policy.fsize, z->policy.nofile,
             z->policy.nproc);
    if (obj == NULL || add_layer(obj, "seccomp", true, sc) < 0 ||
        add_layer(obj, "rlimits", true, rl) < 0 ||
        pw_sbx_layers_json(&z->layers, obj) < 0 ||
        pw_sbx_workspace_json(z, obj) < 0 ||
        add_layer(obj, "pid_namespace", z->pidns, z->pidns_why) < 0 ||
        add_layer(obj, "zygote_process", z->zpid > 0,
                  "runs are forked by a process that never sees a request's "
                  "data") < 0 ||
        add_layer(obj, "audit_hook", true,
                  "PEP 578 hook refusing escape events") < 0 ||
        add_layer(obj, "audit_hook_check", z->hookcheck, z->hookcheck_why) <
            0 ||
        add_layer(obj, "restricted_builtins", true,
                  "guarded getattr, module views, import allow-list") < 0 ||
        add_layer(obj, "environment", true,
                  "scrubbed in the zygote and the child") < 0) {
        return NULL;
    }
    if (z->missing != NULL &&
        json_object_set_new(obj, "missing_modules", json_string(z->missing)) <
            0) {
        return NULL;
    }
    return json_incref(obj);
}

static void
stream_init(struct pw_sbx_stream *s)
{
    s->fd = -1;
    pw_buf_init(&s->buf);
}

static void
run_close_fds(struct pw_sbx_run *r)
{
    int *fds[] = {&r->fd_in,   &r->out.fd,   &r->err.fd, &r->res.fd,
                  &r->pidfd,   &r->ws_fd,    &r->ctl,    &r->listener,
                  &r->stat_fd, &r->status_fd};
    for (size_t i = 0; i < PW_N_ELEMENTS(fds); i++) {
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
    }
}

/* A run started at NOW: kept with the last PW_SBX_PACE_RUNS starts, with
 * the time the server had been idle before it. */
static void
pace_note(struct pw_zygote *z, double now)
{
    if (z->nstarts == PW_SBX_PACE_RUNS) {
        memmove(z->starts, z->starts + 1,
                (PW_SBX_PACE_RUNS - 1) * sizeof(z->starts[0]));
        memmove(z->idle, z->idle + 1,
                (PW_SBX_PACE_RUNS - 1) * sizeof(z->idle[0]));
        z->nstarts--;
    }
    z->idle[z->nstarts] = z->inflight > 0 ? 0 : now - z->last_end;
    z->starts[z->nstarts++] = now;
    z->inflight++;
}

/* A run noted by pace_note is over at NOW. */
static void
pace_end(struct pw_zygote *z, double now)
{
    z->inflight--;
    z->last_end = now;
}

void
pw_sbx_free(struct pw_sbx_run *r)
{
    if (r == NULL) {
        return;
    }
    pw_sbx_wsfiles_stop(r);
    pw_buf_free(&r->pending);
    if (r->sess != NULL) {
        r->release(r); /* what the session keeps is taken */
    }
    if (!r->done && r->pid > 0) {
        (void)kill(-r->pid, SIGKILL);
        (void)kill(r->pid, SIGKILL);
        (void)PW_RETRY(wait4(r->pid, &r->wstatus, 0, &r->ru));
    }
    run_close_fds(r);
    if (r->paced) {
        pace_end(r->z, pw_now());
    }
    /* The process (killed, tearing down its address space) and the
     * scratch directory are left for when the server is idle: removing a
     * directory that is still a mount point in the dying child's
     * namespace costs more than the run. */
    if (r->scratch != NULL || r->reap_deferred) {
        pw_sbx_reap_later(r->z, r->reap_deferred ? r->pid : 0, r->scratch);
    }
    free(r->stdin_data);
    pw_buf_free(&r->out.buf);
    pw_buf_free(&r->err.buf);
    pw_buf_free(&r->res.buf);
    free(r);
}

struct pw_sbx_run *
pw_sbx_run_new(struct pw_zygote *z, const struct pw_sbx_request *req)
{
    struct pw_sbx_run *r = pw_xcalloc(1, sizeof(*r));
    r->z = z;
    r->pidfd = r->fd_in = r->ws_fd = r->listener = r->ctl = -1;
    r->stat_fd = r->status_fd = -1;
    r->cpu_end = -1;
    r->cpu_g = -1;
    r->maxrss_kb = -1;
    r->refused_nr = -1;
    stream_init(&r->out);
    stream_init(&r->err);
    stream_init(&r->res);
    pw_buf_init(&r->pending);
    r->limits = req->limits;
    if (r->limits.timeout_s <= 0 && r->limits.cpu_limit_s > 0) {
        r->limits.timeout_s = r->limits.cpu_limit_s * PW_SBX_WALL_MULTIPLE;
    } else if (r->limits.timeout_s <= 0) {
        r->limits.timeout_s = z->policy.default_timeout;
    }
    if (r->limits.memory_bytes <= 0) {
        r->limits.memory_bytes = z->policy.default_memory;
    }
    if (r->limits.max_output_bytes <= 0) {
        r->limits.max_output_bytes = z->policy.default_max_output;
    }
    r->capture = req->capture_output;
    r->caps = req->caps;
    r->io = req->io != NULL ? *req->io : (struct pw_sbx_io){.in_fd = -1};
    if (req->stdin_len > 0 && !req->batch) { /* a batch's: its request */
        r->stdin_data = pw_xmalloc(req->stdin_len);
        memcpy(r->stdin_data, req->stdin_data, req->stdin_len);
        r->stdin_len = req->stdin_len;
    }
    z->runs++;
    snprintf(r->id, sizeof(r->id), "%08lx-%lu", (unsigned long)getpid(),
             z->runs);
    return r;
}

static void
run_ready(struct pw_sbx_run *r)
{
    int fds[] = {r->fd_in, r->out.fd, r->err.fd, r->res.fd};
    for (size_t i = 0; i < PW_N_ELEMENTS(fds); i++) {
        (void)pw_set_nonblock(fds[i], true);
    }
    if (r->stdin_len == 0 && r->io.in_fd < 0) {
        close(r->fd_in);
        r->fd_in = -1;
    }
}

bool
pw_sbx_attr_store_refused(const char *name)
{
    return pw_sbx_guard_attr_refused(name);
}

/* New reference: CODE compiled for a run under CAPS, by Z's compiler or,
 * where it leaves CODE, the guard's rewrite; NULL when the run must
 * compile it itself. */
static PyObject *
code_blob(const struct pw_zygote *z, const char *code, size_t len,
          unsigned caps)
{
    PyObject *blob = z != NULL && z->compiler != NULL
                         ? z->compiler(code, len, pw_sbx_attr_store_refused)
                         : NULL;
    return blob != NULL ? blob : pw_sbx_guard_code_blob(code, len, caps);
}

/* A malloc'd copy of BLOB's bytes, *OUT_LEN of them; takes over BLOB's
 * reference.  NULL for a NULL BLOB. */
static char *
blob_copy(PyObject *blob, size_t *out_len)
{
    if (blob == NULL) {
        return NULL;
    }
    *out_len = (size_t)PyBytes_GET_SIZE(blob);
    char *copy = pw_xmalloc(*out_len + 1);
    memcpy(copy, PyBytes_AS_STRING(blob), *out_len);
    Py_DECREF(blob);
    return copy;
}

char *
pw_sbx_compile(const char *code, size_t len, unsigned caps, size_t *out_len)
{
    return blob_copy(pw_sbx_guard_code_blob(code, len, caps), out_len);
}

char *
pw_zygote_compile(const struct pw_zygote *z, const char *code, size_t len,
                  unsigned caps, size_t *out_len)
{
    return blob_copy(code_blob(z, code, len, caps), out_len);
}

void
pw_zygote_set_compiler(struct pw_zygote *z, pw_sbx_compiler compile)
{
    z->compiler = compile;
}

/* Hand the request to spare S (owned).  A small program is compiled
 * here, unless the caller did it for many runs: the child then loads
 * it. */
static void
start_on(struct pw_sbx_run *r, struct pw_sbx_spare *s,
         const struct pw_sbx_request *req)
{
    struct pw_sbx_request sent = *req;
    PW_PYAUTO PyObject *blob =
        req->compiled == NULL && !req->compile_tried &&
                req->code_len <= PW_SBX_COMPILE_HERE_MAX
            ? code_blob(r->z, req->code, req->code_len, req->caps)
            : NULL;
    if (blob != NULL) {
        sent.compiled = PyBytes_AS_STRING(blob);
        sent.compiled_len = (size_t)PyBytes_GET_SIZE(blob);
    }
    r->start = pw_now();
    if (r->files != NULL) {
        /* Sent once the files given by fd are in (wsfiles.c). */
        r->cpu_base = -1;
        pw_sbx_request_encode(&sent, &r->limits, &r->pending);
    } else {
        r->cpu_base = pw_sbx_cpu_so_far(s->stat_fd);
        /* A spare that ended before the request (a failed checklist
         * step) cannot take it (EPIPE): the run goes on, and its result
         * channel and exit status say what failed. */
        (void)pw_sbx_spare_send(s, &sent, &r->limits);
    }
    r->pid = s->pid;
    r->pidfd = s->pidfd;
    r->ctl = s->ctl; /* a session's, or the request waits for the
                      * files (wsfiles.c); else closed by the send */
    r->fd_in = s->fds[0];
    r->out.fd = s->fds[1];
    r->err.fd = s->fds[2];
    r->res.fd = s->fds[3];
    r->scratch = s->scratch;
    r->stat_fd = s->stat_fd;
    r->status_fd = s->status_fd;
    free(s);
    run_ready(r);
    /* A host workspace is reachable now: the copy starts at once. */
    if (r->files != NULL && pw_sbx_wsfiles_step(r) < 0) {
        r->stop = PW_STOP_FILES;
        pw_sbx_cancel(r);
    }
}

/* A run has started: its replacement spare, if the caller asked for
 * it, and any other the pool is short of (a run that found the pool
 * empty waited for one; one a start asks for keeps it at a single spare
 * under sustained load).  The zygote forks them while the run's child
 * works, not while a client waits for an answer or a request waits to be
 * read. */
static void
started(struct pw_zygote *z)
{
    if (z->refill_on_start) {
        pool_fill(z);
    }
}

long long
pw_zygote_workspace_bytes(const struct pw_zygote *z)
{
    return z->policy.workspace_bytes;
}

/* The support files REQ gives by fd cannot be put in Z's runs'
 * workspaces (ERR says why): a session's (its calls would share them), or
 * more bytes than a workspace holds. */
static bool
fd_files_bad(const struct pw_zygote *z, const struct pw_sbx_request *req,
             struct pw_error *err)
{
    if (pw_sbx_wsfiles_count(req) == 0) {
        return false;
    }
    if (req->session || req->fork) {
        pw_fail(err, PW_ERR_USAGE,
                "support files given by fd are not for sessions");
        return true;
    }
    long long bytes = pw_sbx_wsfiles_bytes(req, err);
    if (bytes < 0) {
        return true;
    }
    if (bytes > z->policy.workspace_bytes) {
        pw_fail(err, PW_ERR_USAGE,
                "support files of %lld bytes: more than a run's workspace "
                "holds (%lld bytes)",
                bytes, z->policy.workspace_bytes);
        return true;
    }
    return false;
}

/* The argv and support files of REQ are out of bounds (ERR says how). */
static bool
request_extras_bad(const struct pw_zygote *z, const struct pw_sbx_request *req,
                   struct pw_error *err)
{
    size_t argc = 0;
    while (req->argv != NULL && req->argv[argc] != NULL) {
        argc++;
    }
    if (argc > PW_SBX_ARGV_MAX) {
        pw_fail(err, PW_ERR_USAGE, "too many arguments: %zu (at most %d)",
                argc, PW_SBX_ARGV_MAX);
        return true;
    }
    if (req->nfiles > 0 && (req->caps & PW_CAP_WORKSPACE_FILES) == 0) {
        pw_fail(err, PW_ERR_USAGE,
                "support files need a profile with workspace files");
        return true;
    }
    if (req->nfiles > PW_SBX_FILES_MAX) {
        pw_fail(err, PW_ERR_USAGE, "too many support files: %zu (at most %d)",
                req->nfiles, PW_SBX_FILES_MAX);
        return true;
    }
    for (size_t i = 0; i < req->nfiles; i++) {
        const char *name = req->files[i].name;
        if (!pw_sbx_file_name_ok(name)) {
            pw_fail(err, PW_ERR_USAGE,
                    "support file name '%.*s' is not a plain file name",
                    PW_SBX_NAME_MAX, name);
            return true;
        }
        for (size_t k = 0; k < i; k++) {
            if (strcmp(req->files[k].name, name) == 0) {
                pw_fail(err, PW_ERR_USAGE, "support file '%s' named twice",
                        name);
                return true;
            }
        }
    }
    return fd_files_bad(z, req, err);
}

struct pw_sbx_run *
pw_sbx_start(struct pw_zygote *z, const struct pw_sbx_request *req,
             struct pw_error *err)
{
    if (z->owner != getpid()) {
        pw_fail(err, PW_ERR_INTERNAL, "the zygote belongs to another process");
        return NULL;
    }
    if (req->imports == NULL || req->imports->profiles != z->profiles) {
        pw_fail(err, PW_ERR_USAGE,
                "a run's import set must use the "
                "zygote's profiles");
        return NULL;
    }
    if (request_extras_bad(z, req, err)) {
        return NULL;
    }
    struct pw_sbx_run *r = pw_sbx_run_new(z, req);
    long long memory = r->limits.memory_bytes;
    if (pw_sbx_workspace_bytes(z, req->caps, memory) < 0) {
        pw_fail(err, PW_ERR_USAGE,
                "a memory limit of %lld bytes leaves no room for the "
                "workspace's files, which count in it (at most half of it, "
                "whole pages): give at least %ld bytes",
                memory, 2 * sysconf(_SC_PAGESIZE));
        pw_sbx_free(r);
        return NULL;
    }
    if (pw_sbx_wsfiles_attach(r, req, err) < 0) {
        pw_sbx_free(r);
        return NULL;
    }
    /* Leftovers are cleared when the server is idle; a server that never
     * is clears them here, a few runs at a time. */
    if (z->nreap >= PW_SBX_LEFTOVERS_MAX) {
        (void)pw_sbx_reap(z, false);
    }
    unsigned caps = pw_sbx_spare_key(z, req->caps, memory);
    /* The next spares are prepared for what this request asked: a client
     * that uses one set of profiles and memory limit gets prepared spares
     * after one run. */
    z->spare_caps = caps;
    pace_note(z, pw_now());
    r->paced = true;
    pool_collect(z);
    struct pw_sbx_spare *s = pool_take(z, caps);
    r->on_spare = s != NULL;
    if (s == NULL) {
        s = spare_for(z, caps, err);
    }
    if (s == NULL) {
        pw_sbx_free(r);
        return NULL;
    }
    start_on(r, s, req);
    started(z);
    return r;
}

int
pw_sbx_defaults_load(const char *rules_dir, struct pw_sbx_limits *out,
                     struct pw_error *err)
{
    struct pw_sbx_policy p;
    memset(&p, 0, sizeof(p));
    struct pw_sbx_filter *f = pw_sbx_filter_load(rules_dir, &p, err);
    if (f == NULL) {
        return -1;
    }
    pw_sbx_filter_free(f);
    *out = (struct pw_sbx_limits){.timeout_s = p.default_timeout,
                                  .memory_bytes = p.default_memory,
                                  .max_output_bytes = p.default_max_output};
    return 0;
}
