/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * bench-validate.c - how long pw_validate() takes next to CPython's own
 * compile() of the same source, measured in the same process.
 *
 * Usage: bench-validate [ITERATIONS [FILE...]]  (default 2000)
 * Prints, per program and for the mix, the median microseconds of
 *   validate  pw_validate() with the default rule set (parse, walk and,
 *             for clean programs, compile)
 *   compile   Py_CompileStringExFlags(): parse plus code generation
 *   parse     the same with PyCF_ONLY_AST (the `ast` module's objects)
 *   cparse    the parse alone, to the C-level tree the validator walks
 *             (its floor)
 * and the ratio validate / compile; then the same for a few large modules
 * of the interpreter's own standard library (ITERATIONS / 40 rounds).
 * With FILEs: the same for each of them instead, and the worst of
 * validate + compile (what the server's loop does for a program it
 * validates there, tools.c's CHECK_HERE_MAX bytes at most, before its
 * run: src/sandbox/sandbox.c compiles it).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rules.h"
#include "core/py.h"
#include "core/util.h"
#include "validator/ctree.h"
#include "validator/validator.h"

static const struct program {
    const char *name;
    const char *src;
} programs[] = {
    {"hello", "print('Hello, world!')\n"},
    {"fizzbuzz", "for i in range(1, 101):\n"
                 "    if i % 15 == 0:\n        print('FizzBuzz')\n"
                 "    elif i % 3 == 0:\n        print('Fizz')\n"
                 "    elif i % 5 == 0:\n        print('Buzz')\n"
                 "    else:\n        print(i)\n"},
    {"account", "class Account:\n"
                "    def __init__(self, owner, balance=0):\n"
                "        self.owner = owner\n"
                "        self.balance = balance\n"
                "    def deposit(self, amount):\n"
                "        if amount <= 0:\n"
                "            raise ValueError('amount must be positive')\n"
                "        self.balance += amount\n"
                "        return self.balance\n"
                "    def __repr__(self):\n"
                "        return f'Account({self.owner!r}, {self.balance})'\n"
                "def fib(n):\n    a, b = 0, 1\n"
                "    for _ in range(n):\n        a, b = b, a + b\n"
                "    return a\n"
                "if __name__ == '__main__':\n"
                "    acc = Account('ann')\n"
                "    print(acc.deposit(10), [fib(i) for i in range(10)])\n"},
    {"words", "import collections\nimport re\n"
              "text = input()\n"
              "words = re.findall(r'[a-z]+', text.lower())\n"
              "counts = collections.Counter(words)\n"
              "freq = {}\nfor w in words:\n"
              "    freq[w] = freq.get(w, 0) + 1\n"
              "top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))\n"
              "for word, n in top[:10]:\n    print(f'{word:>12} {n}')\n"
              "assert counts.most_common(1)[0][1] == top[0][1]\n"},
    {"subclasses", "print(().__class__.__base__.__subclasses__())\n"},
    {"os-system", "import os\nos.system('cat /etc/passwd')\n"},
    {"frame-walk", "def g():\n    yield 1\n"
                   "it = g()\nf = it.gi_frame.f_back.f_back\n"
                   "b = f.f_builtins['__import__']('os')\n"},
    {"eval-string",
     "code = '__import__(\"os\").system(\"id\")'\neval(code)\n"},
    {"dynamic-getattr", "name = '__cla' + 'ss__'\n"
                        "cls = getattr((), name)\nprint(cls)\n"},
};

static double
now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double
median(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct ctx {
    const struct pw_ruleset *rs;
    const struct pw_importset *imports;
};

enum what { VALIDATE, COMPILE, PARSE, CPARSE, NWHAT };

static void
run_once(const struct ctx *c, enum what w, const char *src)
{
    if (w == VALIDATE) {
        struct pw_diags d;
        struct pw_error err = {0};
        pw_diags_init(&d);
        if (pw_validate(c->rs, c->imports, src, strlen(src), &d, NULL, &err) <
            0) {
            (void)fprintf(stderr, "validate: %s\n", err.message);
            exit(2);
        }
        pw_diags_free(&d);
        return;
    }
    if (w == CPARSE) {
        static PyObject *name;
        name = name != NULL ? name : PyUnicode_InternFromString("<bench>");
        struct pw_ctree t;
        if (pw_ctree_parse(src, name, &t) < 0) {
            PyErr_Clear();
            return;
        }
        pw_ctree_free(&t);
        return;
    }
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    cf.cf_flags = w == PARSE ? PyCF_ONLY_AST : 0;
    PyObject *o =
        Py_CompileStringExFlags(src, "<bench>", Py_file_input, &cf, -1);
    if (o == NULL) {
        PyErr_Clear();
    }
    Py_XDECREF(o);
}

/* Median microseconds of each of the three measurements on SRC over N
 * rounds.  The three run interleaved, one after the other in each round,
 * so that load from other processes hits them alike. */
static void
measure(const struct ctx *c, const char *src, double *buf[NWHAT], int n,
        double med[NWHAT])
{
    for (int w = 0; w < NWHAT; w++) {
        run_once(c, (enum what)w, src); /* warm up */
    }
    for (int i = 0; i < n; i++) {
        for (int w = 0; w < NWHAT; w++) {
            double t0 = now_us();
            run_once(c, (enum what)w, src);
            buf[w][i] = now_us() - t0;
        }
    }
    for (int w = 0; w < NWHAT; w++) {
        med[w] = median(buf[w], (size_t)n);
    }
}

static void
bench(const struct ctx *c, int n)
{
    size_t np = PW_N_ELEMENTS(programs);
    double *buf[NWHAT];
    double med[NWHAT][PW_N_ELEMENTS(programs)];
    double one[NWHAT];
    for (int w = 0; w < NWHAT; w++) {
        buf[w] = pw_xcalloc((size_t)n, sizeof(double));
    }
    (void)printf("%-16s %10s %10s %10s %10s %7s\n", "program", "validate",
                 "compile", "parse", "cparse", "ratio");
    for (size_t p = 0; p < np; p++) {
        measure(c, programs[p].src, buf, n, one);
        for (int w = 0; w < NWHAT; w++) {
            med[w][p] = one[w];
        }
        (void)printf("%-16s %8.1fus %8.1fus %8.1fus %8.1fus %6.2fx\n",
                     programs[p].name, one[VALIDATE], one[COMPILE], one[PARSE],
                     one[CPARSE], one[VALIDATE] / one[COMPILE]);
    }
    double mix[NWHAT];
    for (int w = 0; w < NWHAT; w++) {
        mix[w] = median(med[w], np);
        free(buf[w]);
    }
    double ratio = mix[VALIDATE] / mix[COMPILE];
    (void)printf("%-16s %8.1fus %8.1fus %8.1fus %8.1fus %6.2fx  (median of "
                 "the %zu programs, %d rounds each; target: faster than "
                 "compile(), below 1.00x: %s)\n",
                 "mix", mix[VALIDATE], mix[COMPILE], mix[PARSE], mix[CPARSE],
                 ratio, np, n, ratio < 1.0 ? "met" : "NOT met");
}

/* Large files: modules of the standard library, read from the directory
 * of the running interpreter's `os` module. */
static const char *const large_files[] = {
    "argparse.py", "typing.py", "inspect.py", "dataclasses.py", "pydoc.py",
};

static char *
stdlib_dir(void)
{
    PW_PYAUTO PyObject *os = PyImport_ImportModule("os");
    PW_PYAUTO PyObject *file =
        os != NULL ? PyObject_GetAttrString(os, "__file__") : NULL;
    const char *f = file != NULL ? PyUnicode_AsUTF8(file) : NULL;
    const char *slash = f != NULL ? strrchr(f, '/') : NULL;
    if (slash == NULL) {
        PyErr_Clear();
        return NULL;
    }
    return pw_xstrndup(f, (size_t)(slash - f));
}

static void
bench_large(const struct ctx *c, int n)
{
    PW_AUTOFREE char *dir = stdlib_dir();
    size_t nf = PW_N_ELEMENTS(large_files);
    double *buf[NWHAT];
    double ratios[PW_N_ELEMENTS(large_files)];
    size_t done = 0;
    for (int w = 0; w < NWHAT; w++) {
        buf[w] = pw_xcalloc((size_t)n, sizeof(double));
    }
    (void)printf("\n%-16s %10s %10s %10s %10s %7s\n", "large file", "validate",
                 "compile", "parse", "cparse", "ratio");
    for (size_t i = 0; dir != NULL && i < nf; i++) {
        PW_AUTOFREE char *path = pw_xasprintf("%s/%s", dir, large_files[i]);
        struct pw_buf b;
        pw_buf_init(&b);
        if (pw_read_file(path, (size_t)1 << 20, &b, NULL) < 0) {
            pw_buf_free(&b);
            continue;
        }
        double one[NWHAT];
        measure(c, b.data, buf, n, one);
        ratios[done++] = one[VALIDATE] / one[COMPILE];
        (void)printf("%-16s %8.0fus %8.0fus %8.0fus %8.0fus %6.2fx  (%zu "
                     "bytes)\n",
                     large_files[i], one[VALIDATE], one[COMPILE], one[PARSE],
                     one[CPARSE], one[VALIDATE] / one[COMPILE], b.len);
        pw_buf_free(&b);
    }
    for (int w = 0; w < NWHAT; w++) {
        free(buf[w]);
    }
    if (done > 0) {
        double r = median(ratios, done);
        (void)printf("%-16s %49.2fx  (median ratio of the %zu files, %d "
                     "rounds each; target: below 1.00x: %s)\n",
                     "large", r, done, n, r < 1.0 ? "met" : "NOT met");
    }
}

/* The programs of FILES (N of them), each measured over ROUNDS. */
static void
bench_files(const struct ctx *c, char **files, int n, int rounds)
{
    double *buf[NWHAT];
    double worst = 0;
    const char *which = "";
    for (int w = 0; w < NWHAT; w++) {
        buf[w] = pw_xcalloc((size_t)rounds, sizeof(double));
    }
    (void)printf("%-24s %10s %10s %10s %10s %7s\n", "file", "validate",
                 "compile", "parse", "cparse", "bytes");
    for (int i = 0; i < n; i++) {
        struct pw_buf b;
        pw_buf_init(&b);
        if (pw_read_file(files[i], (size_t)1 << 24, &b, NULL) < 0) {
            pw_buf_free(&b);
            continue;
        }
        double one[NWHAT];
        measure(c, b.data != NULL ? b.data : "", buf, rounds, one);
        const char *slash = strrchr(files[i], '/');
        (void)printf("%-24s %8.1fus %8.1fus %8.1fus %8.1fus %7zu\n",
                     slash != NULL ? slash + 1 : files[i], one[VALIDATE],
                     one[COMPILE], one[PARSE], one[CPARSE], b.len);
        if (one[VALIDATE] + one[COMPILE] > worst) {
            worst = one[VALIDATE] + one[COMPILE];
            which = files[i];
        }
        pw_buf_free(&b);
    }
    for (int w = 0; w < NWHAT; w++) {
        free(buf[w]);
    }
    (void)printf("worst validate + compile: %.1fus (%s, median of %d "
                 "rounds)\n",
                 worst, which, rounds);
}

int
main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    struct pw_error err = {0};
    if (n <= 0 || pw_py_init(&err) < 0) {
        (void)fprintf(stderr, "bench-validate: %s\n",
                      n <= 0 ? "bad iteration count" : err.message);
        return 2;
    }
    char *dir = pw_rules_dir(NULL);
    struct pw_profiles *profiles = pw_profiles_load(dir, &err);
    struct pw_ruleset *rs =
        profiles ? pw_ruleset_load(dir, "default", &err) : NULL;
    free(dir);
    if (rs == NULL) {
        (void)fprintf(stderr, "bench-validate: %s\n", err.message);
        return 2;
    }
    struct pw_importset imports = {
        profiles, pw_profiles_default_mask(profiles), NULL, NULL};
    struct ctx c = {rs, &imports};
    if (argc > 2) {
        bench_files(&c, argv + 2, argc - 2, n);
    } else {
        bench(&c, n);
        bench_large(&c, n / 40 > 5 ? n / 40 : 5);
    }
    pw_ruleset_free(rs);
    pw_profiles_free(profiles);
    return 0;
}
