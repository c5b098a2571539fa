/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * bench-exec.c - latency of a sandboxed run through the warm zygote (the
 * in-process API), next to spawning a fresh python for the same program,
 * measured in the same run.  Prints median and p99 and the ratio, back to
 * back (sustained: each run uses up a prepared spare and forks its
 * replacement as it starts, as `pyward serve` does for such a client;
 * the two compete for the CPU) and 50 ms apart (interactive: the pool is full
 * when the request comes), and without the pool; and the cost of the
 * mount namespace step next to a child that only makes its user
 * namespace (the two interleaved, so host noise hits both alike).
 *
 * usage: bench-exec [RUNS]   (PYTHON3 names the interpreter to spawn,
 *                             PYWARD_SPARES the size of the pool)
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rules.h"
#include "core/py.h"
#include "grade/queue.h"
#include "sandbox/sandbox.h"
#include "sandbox/os/checklist.h"
#include "sandbox/os/layers.h"
#include "core/util.h"

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

struct stats {
    double p50;
    double p99;
};

static struct stats
summarize(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    int i99 = (int)(n * 0.99);
    struct stats s = {v[n / 2], v[i99 >= n ? n - 1 : i99]};
    return s;
}

/* GAP_MS: idle time between runs (not timed), as between the requests
 * of a real client; 0 for back-to-back runs.  ALT: capabilities every
 * other run asks for (a client alternating two profiles), or 0. */
static struct stats
bench_sandbox_alt(struct pw_zygote *z, const struct pw_importset *set,
                  const char *code, const char *want, int runs, int gap_ms,
                  unsigned alt)
{
    double *v = pw_xcalloc((size_t)runs, sizeof(double));
    struct pw_sbx_request req = {.code = code,
                                 .code_len = strlen(code),
                                 .limits = {.timeout_s = 30},
                                 .imports = set,
                                 .capture_output = true};
    pw_zygote_refill_on_start(z, gap_ms == 0);
    for (int i = -3; i < runs; i++) {
        json_t *res = NULL;
        struct pw_error err = {0};
        req.caps = (i & 1) != 0 ? alt : 0;
        double t0 = pw_now();
        if (pw_queue_run_json(z, &req, &res, &err) < 0) {
            fprintf(stderr, "run failed: %s\n", err.message);
            exit(1);
        }
        double dt = pw_now() - t0;
        const char *out = json_string_value(json_object_get(res, "stdout"));
        if (out == NULL || strcmp(out, want) != 0) {
            fprintf(stderr, "wrong output: %s\n", json_dumps(res, 0));
            exit(1);
        }
        json_decref(res);
        if (gap_ms > 0) {
            /* Idle between requests: the server refills the pool then. */
            while (pw_zygote_refill(z)) {
            }
            usleep((useconds_t)gap_ms * 1000);
        }
        if (i >= 0) {
            v[i] = dt;
        }
    }
    pw_zygote_refill_on_start(z, false);
    struct stats s = summarize(v, runs);
    free(v);
    return s;
}

static struct stats
bench_sandbox(struct pw_zygote *z, const struct pw_importset *set,
              const char *code, const char *want, int runs, int gap_ms)
{
    return bench_sandbox_alt(z, set, code, want, runs, gap_ms, 0);
}

/* GAP_MS as for bench_sandbox: an idle host's caches are cold for both. */
static struct stats
bench_spawn(const char *python, const char *flags, const char *code, int runs,
            int gap_ms)
{
    double *v = pw_xcalloc((size_t)runs, sizeof(double));
    for (int i = -1; i < runs; i++) {
        if (gap_ms > 0) {
            usleep((useconds_t)gap_ms * 1000);
        }
        double t0 = pw_now();
        pid_t pid = fork();
        if (pid == 0) {
            int fd = open("/dev/null", O_WRONLY);
            dup2(fd, 1);
            execl(python, python, flags, "-c", code, (char *)NULL);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "%s failed\n", python);
            exit(1);
        }
        if (i >= 0) {
            v[i] = pw_now() - t0;
        }
    }
    struct stats s = summarize(v, runs);
    free(v);
    return s;
}

/* The floor on this host: fork the warm zygote, the child _exits at once
 * (no layer, no Python), reap. */
static struct stats
bench_fork_floor(int runs)
{
    double *v = pw_xcalloc((size_t)runs, sizeof(double));
    for (int i = 0; i < runs; i++) {
        double t0 = pw_now();
        pid_t pid = fork();
        if (pid == 0) {
            _exit(0);
        }
        waitpid(pid, NULL, 0);
        v[i] = pw_now() - t0;
    }
    struct stats s = summarize(v, runs);
    free(v);
    return s;
}

/* Fork, run the layers' steps up to the user namespace (MOUNT: and the
 * mount namespace), _exit, reap. */
static double
ns_child(const struct pw_sbx_layers *l, const char *scratch, bool mount)
{
    double t0 = pw_now();
    pid_t pid = fork();
    if (pid == 0) {
        const char *what = "";
        int rc = mount ? pw_sbx_checklist_ns(l, scratch, false, &what)
                       : pw_sbx_drop_uid(l, &what) | pw_sbx_unshare(l, false);
        _exit(rc < 0 ? 1 : 0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? pw_now() - t0 : -1;
}

static void
bench_mountns(int runs)
{
    struct pw_sbx_layers l;
    const char *tmp = getenv("TMPDIR");
    char *scratch = pw_xasprintf("%s/pyward-bench.XXXXXX",
                                 tmp != NULL && *tmp == '/' ? tmp : "/tmp");
    pw_sbx_layers_probe(&l);
    pw_sbx_checklist_probe(&l, tmp != NULL && *tmp == '/' ? tmp : "/tmp");
    if (!l.mounts.active || mkdtemp(scratch) == NULL ||
        (l.root && chown(scratch, 65534, 65534) < 0)) {
        printf("mount namespace step: inactive (%s)\n", l.mounts.why);
        pw_sbx_layers_clear(&l);
        free(scratch);
        return;
    }
    double *a = pw_xcalloc((size_t)runs, sizeof(double));
    double *b = pw_xcalloc((size_t)runs, sizeof(double));
    for (int i = 0; i < runs; i++) {
        a[i] = ns_child(&l, scratch, false);
        b[i] = ns_child(&l, scratch, true);
    }
    struct stats sa = summarize(a, runs), sb = summarize(b, runs);
    printf("%-28s p50 %8.3f ms  p99 %8.3f ms | user ns only p50 %8.3f ms  "
           "p99 %8.3f ms | +%.3f ms\n",
           "fork+mount ns step+_exit", sb.p50 * 1e3, sb.p99 * 1e3,
           sa.p50 * 1e3, sa.p99 * 1e3, (sb.p50 - sa.p50) * 1e3);
    free(a);
    free(b);
    (void)rmdir(scratch);
    free(scratch);
    pw_sbx_layers_clear(&l);
}

static void
report(const char *what, struct stats sb, struct stats sp)
{
    printf("%-28s sandbox p50 %8.3f ms  p99 %8.3f ms | spawn p50 %8.3f ms  "
           "p99 %8.3f ms | %.1fx faster\n",
           what, sb.p50 * 1e3, sb.p99 * 1e3, sp.p50 * 1e3, sp.p99 * 1e3,
           sp.p50 / sb.p50);
}

int
main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 200;
    const char *spares = getenv("PYWARD_SPARES");
    spares = spares != NULL ? pw_xstrdup(spares) : NULL;
    const char *python = getenv("PYTHON3");
    python = python != NULL && *python == '/' ? python : PW_PYTHON_EXECUTABLE;
    python = pw_xstrdup(python);
    struct pw_error err = {0};
    PW_AUTOFREE char *rules = pw_rules_dir(NULL);
    struct pw_profiles *p = pw_profiles_load(rules, &err);
    if (p == NULL || pw_py_init(&err) < 0) {
        fprintf(stderr, "setup: %s\n", err.message);
        return 1;
    }
    pw_profile_mask basic = pw_profiles_default_mask(p);
    struct pw_importset set = {.profiles = p, .mask = basic};
    struct pw_zygote *z = pw_zygote_new(p, basic, &err);
    if (z == NULL) {
        fprintf(stderr, "zygote: %s\n", err.message);
        return 1;
    }
    printf("runs: %d sandboxed, %d spawned; python: %s; %s prepared "
           "spares\n",
           runs, runs / 4, python, spares != NULL ? spares : "2 (default)");
    struct stats floor = bench_fork_floor(runs);
    printf("%-28s fork+_exit p50 %8.3f ms  p99 %8.3f ms (this host's floor "
           "for any fork-per-run design)\n",
           "bare fork of the zygote", floor.p50 * 1e3, floor.p99 * 1e3);
    bench_mountns(runs);
    report("print('hi')",
           bench_sandbox(z, &set, "print('hi')", "hi\n", runs, 0),
           bench_spawn(python, "-IS", "print('hi')", runs / 4, 0));
    report("print('hi'), 50 ms apart",
           bench_sandbox(z, &set, "print('hi')", "hi\n", runs / 2, 50),
           bench_spawn(python, "-IS", "print('hi')", runs / 4, 50));
    /* A client alternating two profiles whose spares differ (basic and
     * one that writes output files): the pool keeps spares for both. */
    report("print('hi'), 2 profiles",
           bench_sandbox_alt(z, &set, "print('hi')", "hi\n", runs / 2, 50,
                             PW_CAP_OUTPUT_FILES),
           bench_spawn(python, "-IS", "print('hi')", runs / 4, 50));
    /* The same without the pool of prepared spares: every run forks on
     * demand and installs every layer after the request. */
    pw_zygote_set_spares(z, 0);
    report("print('hi'), no spares",
           bench_sandbox(z, &set, "print('hi')", "hi\n", runs / 2, 0),
           bench_spawn(python, "-IS", "print('hi')", runs / 4, 0));
    pw_zygote_free(z);

    pw_profile_mask ds = basic;
    if (pw_profiles_parse_list(p, "basic,data_science", &ds, &err) < 0 ||
        (z = pw_zygote_new(p, ds, &err)) == NULL) {
        fprintf(stderr, "data_science: %s\n", err.message);
        return 1;
    }
    set.mask = ds;
    const char *np = "import numpy as np\nprint(np.arange(10).sum())";
    const char *np_c = "import numpy as np; print(np.arange(10).sum())";
    report("numpy arange().sum()", bench_sandbox(z, &set, np, "45\n", runs, 0),
           bench_spawn(python, "-I", np_c, runs / 10 > 5 ? runs / 10 : 5, 0));
    report("numpy, 50 ms apart",
           bench_sandbox(z, &set, np, "45\n", runs / 2, 50),
           bench_spawn(python, "-I", np_c, 5, 50));
    pw_zygote_free(z);
    pw_profiles_free(p);
    return 0;
}
