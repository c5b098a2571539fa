/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * packages.c - `pyward packages install|list|remove`: the operator's
 * package sets (core/pkgset.h).  pip (Debian's python3-pip) installs, in
 * a process of its own, with --target into the set's directory; only
 * wheels, unless --allow-sdist (building an sdist runs its setup code on
 * this host, outside any sandbox).  Nothing of a package runs in this
 * process: a set is read from its files.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "core/json.h"
#include "core/pkgset.h"
#include "core/util.h"
#include "server/packages.h"

static void
usage(FILE *out)
{
    fprintf(out,
            "usage: pyward packages install --set NAME [--find-links DIR] "
            "[--index-url URL]\n"
            "                               [--no-index] [--no-deps] "
            "[--allow-sdist] REQUIREMENT|WHEEL...\n"
            "       pyward packages list [--set NAME] [--json]\n"
            "       pyward packages remove --set NAME [DISTRIBUTION...]\n"
            "\nPackage sets live in $PYWARD_STATE_DIR/packages/NAME "
            "(default /var/lib/pyward);\n"
            "`pyward serve --packages NAME[:PROFILE]` lets runs import "
            "them.\n");
}

/* ---- install -------------------------------------------------------- */

/* RECORD's paths of every distribution of DIR stay inside it; else the
 * first that does not, in WHY. */
static bool
records_inside(const char *dir, char *why, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool ok = d != NULL;
    /* cppcheck-suppress readdirCalled */
    while (ok && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n <= 10 || strcmp(e->d_name + n - 10, ".dist-info") != 0) {
            continue;
        }
        PW_AUTOFREE char *rp = pw_xasprintf("%s/%s/RECORD", dir, e->d_name);
        struct pw_buf rec;
        struct pw_error err = {0};
        pw_buf_init(&rec);
        if (pw_read_file(rp, 4u << 20, &rec, &err) == 0 && rec.data != NULL) {
            for (char *p = rec.data; ok && *p != '\0';) {
                size_t line = strcspn(p, "\r\n");
                PW_AUTOFREE char *path = pw_xstrndup(p, strcspn(p, ",\r\n"));
                if (path[0] == '/' || strncmp(path, "../", 3) == 0 ||
                    strstr(path, "/../") != NULL) {
                    snprintf(why, size, "%s lists '%s', outside the set",
                             e->d_name, path);
                    ok = false;
                }
                p += line;
                p += strspn(p, "\r\n");
            }
        }
        pw_buf_free(&rec);
    }
    if (d != NULL) {
        closedir(d);
    }
    return ok;
}

static int
run_pip(char **argv)
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("pyward packages: fork");
        return -1;
    }
    if (pid == 0) {
        /* Readable by the runs' user; no prompt; the operator's pip
         * configuration stands, but never a user install. */
        umask(022);
        (void)setenv("PIP_NO_INPUT", "1", 1);
        (void)setenv("PIP_DISABLE_PIP_VERSION_CHECK", "1", 1);
        (void)unsetenv("PIP_USER");
        (void)unsetenv("PYTHONPATH");
        (void)unsetenv("PYTHONSTARTUP");
        (void)dup2(2, 1); /* pip's report on stderr */
        execv(argv[0], argv);
        fprintf(stderr, "pyward packages: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st = 0;
    if (PW_RETRY(waitpid(pid, &st, 0)) != pid) {
        return -1;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* mkdir -p DIR (0755). */
static int
mkdirs(const char *dir)
{
    PW_AUTOFREE char *p = pw_xstrdup(dir);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0755) < 0 && errno != EEXIST) {
                return -1;
            }
            *s = c;
            if (c == '\0') {
                return 0;
            }
        }
    }
}

struct pip_opts {
    const char *links;
    const char *index;
    bool no_index;
    bool no_deps;
    bool sdist;
};

/* pip's command line for the N requirements or wheels REQS into DIR
 * (owned vector of borrowed strings), or NULL: an sdist without
 * --allow-sdist, said on stderr. */
static char **
pip_argv(char *dir, const struct pip_opts *o, int n_reqs, char **reqs)
{
    char **av = pw_xcalloc((size_t)n_reqs + 24, sizeof(char *));
    size_t n = 0;
    av[n++] = (char *)PW_PYTHON_EXECUTABLE;
    av[n++] = (char *)"-I";
    av[n++] = (char *)"-m";
    av[n++] = (char *)"pip";
    av[n++] = (char *)"install";
    av[n++] = (char *)"--target";
    av[n++] = dir;
    av[n++] = (char *)"--upgrade";
    av[n++] = (char *)"--no-input";
    av[n++] = (char *)"--no-warn-script-location";
    if (!o->sdist) {
        av[n++] = (char *)"--only-binary";
        av[n++] = (char *)":all:";
    }
    if (o->no_deps) {
        av[n++] = (char *)"--no-deps";
    }
    if (o->no_index) {
        av[n++] = (char *)"--no-index";
    }
    if (o->links != NULL) {
        av[n++] = (char *)"--find-links";
        av[n++] = (char *)o->links;
    }
    if (o->index != NULL) {
        av[n++] = (char *)"--index-url";
        av[n++] = (char *)o->index;
    }
    av[n++] = (char *)"--";
    for (int i = 0; i < n_reqs; i++) {
        if (!o->sdist && (strstr(reqs[i], ".tar.gz") != NULL ||
                          strstr(reqs[i], ".zip") != NULL)) {
            fprintf(stderr,
                    "pyward packages: %s: a source distribution runs its "
                    "build code on this host; refused without "
                    "--allow-sdist\n",
                    reqs[i]);
            free(av);
            return NULL;
        }
        av[n++] = reqs[i];
    }
    av[n] = NULL;
    return av;
}

/* install's options into *SET and O: 0, or the exit status (usage). */
static int
install_opts(int argc, char **argv, const char **set, struct pip_opts *o)
{
    static const struct option longs[] = {
        {"set", required_argument, NULL, 's'},
        {"find-links", required_argument, NULL, 'f'},
        {"index-url", required_argument, NULL, 'i'},
        {"no-index", no_argument, NULL, 'n'},
        {"no-deps", no_argument, NULL, 'd'},
        {"allow-sdist", no_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (c) {
        case 's':
            *set = optarg;
            break;
        case 'f':
            o->links = optarg;
            break;
        case 'i':
            o->index = optarg;
            break;
        case 'n':
            o->no_index = true;
            break;
        case 'd':
            o->no_deps = true;
            break;
        case 'a':
            o->sdist = true;
            break;
        case 'h':
            usage(stdout);
            return -1;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (*set == NULL || optind >= argc) {
        usage(stderr);
        return 2;
    }
    return 0;
}

static int
install(int argc, char **argv)
{
    const char *set = NULL;
    struct pip_opts o = {0};
    int usage_rc = install_opts(argc, argv, &set, &o);
    if (usage_rc != 0) {
        return usage_rc < 0 ? 0 : usage_rc;
    }
    struct pw_error err = {0};
    PW_AUTOFREE char *dir = pw_pkgset_dir(set, &err);
    if (dir == NULL) {
        fprintf(stderr, "pyward packages: %s\n", err.message);
        return 2;
    }
    char **av = pip_argv(dir, &o, argc - optind, argv + optind);
    if (av == NULL) {
        return 2;
    }
    if (mkdirs(dir) < 0) {
        fprintf(stderr, "pyward packages: %s: %s\n", dir, strerror(errno));
        free(av);
        return 1;
    }
    int rc = run_pip(av);
    free(av);
    char why[512] = "";
    if (rc == 0 && !records_inside(dir, why, sizeof(why))) {
        fprintf(stderr, "pyward packages: set '%s': %s\n", set, why);
        return 1;
    }
    if (rc != 0) {
        fprintf(stderr,
                "pyward packages: pip failed (status %d); the set "
                "'%s' is as pip left it\n",
                rc, set);
        return 1;
    }
    printf("installed into the set '%s' (%s)\n", set, dir);
    return 0;
}

/* ---- list ----------------------------------------------------------- */

static void
print_set(const struct pw_pkgset *s)
{
    printf("%s (%s)\n", s->name, s->dir);
    if (s->n == 0) {
        printf("  (no distributions)\n");
    }
    for (size_t k = 0; k < s->n; k++) {
        const struct pw_dist *d = &s->v[k];
        printf("  %s %s:", d->name, d->version);
        for (size_t m = 0; m < d->nmodules; m++) {
            printf("%s%s", m > 0 ? ", " : " ", d->modules[m]);
        }
        printf("%s\n", d->pth ? " (ships a .pth file: never processed)" : "");
    }
}

static int
list(int argc, char **argv)
{
    static const struct option longs[] = {
        {"set", required_argument, NULL, 's'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *only = NULL;
    bool json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (c) {
        case 's':
            only = optarg;
            break;
        case 'j':
            json = true;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    struct pw_error err = {0};
    PW_AUTOFREE char *root = pw_pkgset_root();
    struct dirent **names = NULL;
    int nn = only != NULL ? 0 : scandir(root, &names, NULL, alphasort);
    json_t *out = json_array();
    int rc = 0;
    for (int i = -1; i < nn; i++) {
        const char *name = i < 0 ? only : names[i]->d_name;
        if (name == NULL || (i >= 0 && name[0] == '.')) {
            continue;
        }
        struct pw_pkgset s;
        if (pw_pkgset_read(&s, name, &err) < 0) {
            fprintf(stderr, "pyward packages: %s\n", err.message);
            rc = 1;
            continue;
        }
        if (json) {
            json_array_append_new(out, pw_pkgset_json(&s));
        } else {
            print_set(&s);
        }
        pw_pkgset_clear(&s);
    }
    for (int i = 0; i < nn; i++) {
        free(names[i]);
    }
    free(names);
    if (json) {
        char *text = json_dumps(out, JSON_INDENT(2));
        printf("%s\n", text != NULL ? text : "[]");
        free(text);
    } else if (only == NULL && nn <= 0) {
        printf("no package sets in %s\n", root);
    }
    json_decref(out);
    return rc;
}

/* ---- remove --------------------------------------------------------- */

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* The files RECORD lists for distribution D of S, its dist-info, then
 * the directories left empty. */
static int
remove_dist(const struct pw_pkgset *s, const struct pw_dist *d)
{
    DIR *dir = opendir(s->dir);
    struct dirent *e;
    char info[300] = "";
    /* cppcheck-suppress readdirCalled */
    while (dir != NULL && (e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        char key[128];
        const char *dash = strchr(e->d_name, '-');
        if (n > 10 && strcmp(e->d_name + n - 10, ".dist-info") == 0 &&
            dash != NULL) {
            pw_pkgset_normalize(e->d_name, (size_t)(dash - e->d_name), key,
                                sizeof(key));
            if (strcmp(key, d->key) == 0) {
                snprintf(info, sizeof(info), "%s", e->d_name);
            }
        }
    }
    if (dir != NULL) {
        closedir(dir);
    }
    if (info[0] == '\0') {
        return -1;
    }
    PW_AUTOFREE char *rp = pw_xasprintf("%s/%s/RECORD", s->dir, info);
    struct pw_buf rec;
    struct pw_error err = {0};
    pw_buf_init(&rec);
    if (pw_read_file(rp, 4u << 20, &rec, &err) == 0 && rec.data != NULL) {
        for (char *p = rec.data; *p != '\0';) {
            size_t line = strcspn(p, "\r\n");
            size_t len = strcspn(p, ",\r\n");
            char *path = pw_xstrndup(p, len);
            if (path[0] != '/' && strstr(path, "..") == NULL) {
                PW_AUTOFREE char *full = pw_xasprintf("%s/%s", s->dir, path);
                (void)unlink(full);
                char *slash;
                while ((slash = strrchr(path, '/')) != NULL) {
                    *slash = '\0';
                    PW_AUTOFREE char *up = pw_xasprintf("%s/%s", s->dir, path);
                    PW_AUTOFREE char *cache =
                        pw_xasprintf("%s/__pycache__", up);
                    (void)nftw(cache, rm_one, 8, FTW_DEPTH | FTW_PHYS);
                    if (rmdir(up) < 0) {
                        break;
                    }
                }
            }
            free(path);
            p += line;
            p += strspn(p, "\r\n");
        }
    }
    pw_buf_free(&rec);
    PW_AUTOFREE char *full = pw_xasprintf("%s/%s", s->dir, info);
    return nftw(full, rm_one, 8, FTW_DEPTH | FTW_PHYS) == 0 || errno == ENOENT
               ? 0
               : -1;
}

static int
remove_cmd(int argc, char **argv)
{
    static const struct option longs[] = {
        {"set", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *set = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (c) {
        case 's':
            set = optarg;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    struct pw_error err = {0};
    struct pw_pkgset s;
    if (set == NULL) {
        usage(stderr);
        return 2;
    }
    if (pw_pkgset_read(&s, set, &err) < 0) {
        fprintf(stderr, "pyward packages: %s\n", err.message);
        return 1;
    }
    int rc = 0;
    if (optind == argc) {
        if (nftw(s.dir, rm_one, 8, FTW_DEPTH | FTW_PHYS) < 0) {
            fprintf(stderr, "pyward packages: removing %s: %s\n", s.dir,
                    strerror(errno));
            rc = 1;
        } else {
            printf("removed the set '%s'\n", s.name);
        }
    }
    for (int i = optind; i < argc; i++) {
        const struct pw_dist *d = pw_pkgset_find(&s, argv[i]);
        if (d == NULL || remove_dist(&s, d) < 0) {
            fprintf(stderr,
                    "pyward packages: set '%s' has no distribution "
                    "'%s'\n",
                    s.name, argv[i]);
            rc = 1;
        } else {
            printf("removed %s %s from the set '%s'\n", d->name, d->version,
                   s.name);
        }
    }
    pw_pkgset_clear(&s);
    return rc;
}

int
pw_cmd_packages(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "install") == 0) {
        return install(argc - 1, argv + 1);
    }
    if (strcmp(sub, "list") == 0) {
        return list(argc - 1, argv + 1);
    }
    if (strcmp(sub, "remove") == 0) {
        return remove_cmd(argc - 1, argv + 1);
    }
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "pyward packages: unknown command '%s'\n", sub);
    usage(stderr);
    return 2;
}
