/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz-rules.c - the loaders of the JSON data files in rules/: the rule
 * files (validator/ruleset.c) with the lists they take from runtime.json
 * (validator/runtime_ref.c), profiles.json (src/core/profiles.c) and
 * seccomp.json (src/sandbox/os/filter.c).
 *
 * The input is "NAME\nCONTENT": CONTENT replaces rules/NAME in a private
 * copy of the shipped directory (NAME "extra.json" adds one more rule
 * file), the loader that reads NAME runs, and the file is put back.  An
 * input with no known NAME line goes to calls.json whole.  A rule set
 * that loads is also used on a program that fires most rules, so the
 * message templates are rendered.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "core/profiles.h"
#include "sandbox/os/filter.h"
#include "core/util.h"
#include "validator/validator.h"

static const char *const files[] = {
    "meta.json",       "imports.json",    "calls.json",
    "attributes.json", "statements.json", "names.json",
    "profiles.json",   "seccomp.json",    "runtime.json",
};
#define NFILES     (sizeof(files) / sizeof(files[0]))
#define EXTRA_FILE "extra.json"

static struct pw_buf originals[NFILES];
static char dir_template[] = "/tmp/pyward-fuzz-rules.XXXXXX";
static char *dir;
static struct pw_profiles *profiles;

static const char program[] =
    "import os, sys, ctypes\nfrom subprocess import run\n"
    "x = eval('1') + exec('2')\nopen('/etc/passwd').read()\n"
    "y = ().__class__.__bases__[0].__subclasses__()\n"
    "def f():\n    global x\n    yield x.gi_frame\n"
    "print(getattr(x, '_' + 'x'), globals(), vars(), __import__('os'))\n"
    "class A(type): pass\nwith open('f') as h: pass\n";

static void
write_file(const char *name, const void *p, size_t n)
{
    char *path = pw_xasprintf("%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (fp == NULL || fwrite(p, 1, n, fp) != n || fclose(fp) != 0) {
        pw_fuzz_die("cannot write", path);
    }
    free(path);
}

static void
remove_dir(void)
{
    for (size_t i = 0; i < NFILES; i++) {
        char *path = pw_xasprintf("%s/%s", dir, files[i]);
        (void)unlink(path);
        free(path);
    }
    (void)rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    struct pw_error err = {0};
    pw_fuzz_init_python();
    dir = mkdtemp(dir_template);
    if (dir == NULL) {
        pw_fuzz_die("mkdtemp", dir_template);
    }
    for (size_t i = 0; i < NFILES; i++) {
        char *path = pw_xasprintf("%s/%s", pw_fuzz_rules_dir(), files[i]);
        pw_buf_init(&originals[i]);
        if (pw_read_file(path, 0, &originals[i], &err) < 0) {
            pw_fuzz_die("shipped rules", err.message);
        }
        write_file(files[i], originals[i].data, originals[i].len);
        free(path);
    }
    (void)atexit(remove_dir);
    profiles = pw_profiles_load(dir, &err);
    if (profiles == NULL) {
        pw_fuzz_die("profiles", err.message);
    }
    return 0;
}

/* Load the rule set NAME from the private directory and use it once. */
static void
try_ruleset(const char *name)
{
    struct pw_error err = {0};
    struct pw_ruleset *rs = pw_ruleset_load(dir, name, &err);
    if (rs == NULL) {
        return;
    }
    struct pw_importset imports = {
        profiles, pw_profiles_default_mask(profiles), NULL, NULL};
    struct pw_diags d;
    struct pw_analysis an;
    pw_diags_init(&d);
    if (pw_validate(rs, &imports, program, sizeof(program) - 1, &d, &an,
                    &err) == 0) {
        json_decref(pw_diags_to_json(&d));
    }
    pw_diags_free(&d);
    for (size_t i = 0; i < pw_ruleset_count(rs); i++) {
        struct pw_rule_info info;
        pw_ruleset_info(rs, i, &info);
    }
    pw_ruleset_free(rs);
}

static void
try_profiles(void)
{
    struct pw_error err = {0};
    struct pw_profiles *p = pw_profiles_load(dir, &err);
    if (p == NULL) {
        return;
    }
    pw_profile_mask mask = pw_profiles_default_mask(p);
    struct pw_importset set = {p, mask, NULL, NULL};
    const char *which = NULL;
    (void)pw_importset_check(&set, "numpy.linalg", &which);
    (void)pw_importset_check(&set, "os", &which);
    (void)pw_profiles_caps(p, mask);
    (void)pw_profiles_parse_list(p, "network,data-science", &mask, &err);
    pw_profiles_free(p);
}

static void
try_seccomp(void)
{
    struct pw_error err = {0};
    struct pw_sbx_policy policy;
    pw_sbx_filter_free(pw_sbx_filter_load(dir, &policy, &err));
}

/* Index of the file named by the first line of DATA, its content in
 * *BODY / *N; NFILES for EXTRA_FILE. */
static size_t
pick_file(const uint8_t *data, size_t size, const uint8_t **body, size_t *n)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t head = nl != NULL ? (size_t)(nl - data) : 0;
    *body = nl != NULL ? nl + 1 : data;
    *n = nl != NULL ? size - head - 1 : size;
    for (size_t i = 0; nl != NULL && i < NFILES; i++) {
        if (strlen(files[i]) == head && memcmp(files[i], data, head) == 0) {
            return i;
        }
    }
    if (nl != NULL && head == strlen(EXTRA_FILE) &&
        memcmp(EXTRA_FILE, data, head) == 0) {
        return NFILES;
    }
    *body = data;
    *n = size;
    return 2; /* calls.json */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *body;
    size_t n;
    size_t i = pick_file(data, size, &body, &n);
    const char *name = i < NFILES ? files[i] : EXTRA_FILE;
    write_file(name, body, n);
    if (strcmp(name, "profiles.json") == 0) {
        try_profiles();
    } else if (strcmp(name, "seccomp.json") == 0) {
        try_seccomp();
    } else {
        try_ruleset("default");
        try_ruleset("restricted");
    }
    if (i < NFILES) {
        write_file(name, originals[i].data, originals[i].len);
    } else {
        char *path = pw_xasprintf("%s/%s", dir, EXTRA_FILE);
        (void)unlink(path);
        free(path);
    }
    return 0;
}
