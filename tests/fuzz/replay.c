/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * replay.c - a standalone driver for the fuzz targets: runs
 * LLVMFuzzerTestOneInput once for every file named on the command line
 * (directories are walked one level deep), so builds without libFuzzer
 * still replay the seed corpus and the regression inputs.  Exits 1 if an
 * argument cannot be read; a finding aborts (sanitizers) or hangs (the
 * test harness times it out).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "core/util.h"

/* Feed the file PATH to the target.  Returns 0, or -1 if unreadable. */
static int
replay_file(const char *path)
{
    struct pw_buf b;
    struct pw_error err = {0};
    pw_buf_init(&b);
    if (pw_read_file(path, 0, &b, &err) < 0) {
        (void)fprintf(stderr, "%s: %s\n", path, err.message);
        return -1;
    }
    /* An exact-size copy, so that ASan sees reads past the end. */
    uint8_t *data = pw_xmalloc(b.len > 0 ? b.len : 1);
    if (b.len > 0) {
        memcpy(data, b.data, b.len);
    }
    (void)LLVMFuzzerTestOneInput(data, b.len);
    free(data);
    pw_buf_free(&b);
    return 0;
}

/* Replay every regular file in DIR, in name order; the count or -1. */
static long
replay_dir(const char *dir)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        (void)fprintf(stderr, "%s: %s\n", dir, strerror(errno));
        return -1;
    }
    long count = 0;
    for (int i = 0; i < n; i++) {
        char *path = pw_xasprintf("%s/%s", dir, names[i]->d_name);
        struct stat st;
        if (names[i]->d_name[0] != '.' && stat(path, &st) == 0 &&
            S_ISREG(st.st_mode)) {
            count = replay_file(path) < 0 || count < 0 ? -1 : count + 1;
        }
        free(path);
        free(names[i]);
    }
    free(names);
    return count;
}

int
main(int argc, char **argv)
{
    (void)LLVMFuzzerInitialize(&argc, &argv);
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        long n = -1;
        if (stat(argv[i], &st) == 0) {
            n = S_ISDIR(st.st_mode) ? replay_dir(argv[i])
                                    : (replay_file(argv[i]) == 0 ? 1 : -1);
        }
        failed |= n < 0;
        (void)fprintf(stderr, "%s: %ld inputs replayed%s\n", argv[i],
                      n < 0 ? 0 : n, n < 0 ? " (unreadable)" : "");
    }
    return failed;
}
