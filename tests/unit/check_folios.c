/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_folios.c - moving memory into large folios (folios.c): the
 * contents stay, pages never touched stay untouched, a failed move leaves
 * the range as it was, and a whole process (an interpreter, a C heap)
 * moved in place goes on working.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Python.h>

#include "core/py.h"
#include "core/util.h"
#include "sandbox/run/folios.h"

#define PAGE  4096UL
#define PAGES 1024 /* 4 MiB */

static char *
region(void)
{
    char *p = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(p, MAP_FAILED);
    return p;
}

/* In the first quarter, every third page written with its number; the
 * other pages never touched. */
static bool
written(size_t i)
{
    return i < PAGES / 4 && i % 3 == 0;
}

static void
fill(char *p)
{
    for (size_t i = 0; i < PAGES / 4; i += 3) {
        memset(p + i * PAGE, (int)(i & 0xff) | 1, PAGE);
    }
}

static bool
present(int pagemap, const char *p)
{
    uint64_t e = 0;
    off_t at = (off_t)((uintptr_t)p / PAGE * sizeof(e));
    ck_assert_int_eq(pread(pagemap, &e, sizeof(e), at), (ssize_t)sizeof(e));
    return (e >> 63) != 0;
}

static void
check_filled(const char *p)
{
    for (size_t i = 0; i < PAGES; i++) {
        char want = written(i) ? (char)((i & 0xff) | 1) : 0;
        for (size_t k = 0; k < PAGE; k += 512) {
            ck_assert_int_eq(p[i * PAGE + k], want);
        }
    }
}

START_TEST(move_keeps_contents_and_holes)
{
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    ck_assert_int_ge(pagemap, 0);
    char *p = region();
    fill(p);
    ck_assert_int_eq(pw_sbx_folios_move(p, PAGES * PAGE, pagemap), 0);
    /* The second half was never touched, nor is it in a folio (1 MiB at
     * most) with a page that was: none of it was copied. */
    for (size_t i = PAGES / 2; i < PAGES; i++) {
        ck_assert_msg(!present(pagemap, p + i * PAGE), "page %zu", i);
    }
    ck_assert(present(pagemap, p));
    check_filled(p);
    /* Still private and writable at the same address. */
    p[1] = 42;
    ck_assert_int_eq(p[1], 42);
    ck_assert_int_eq(munmap(p, PAGES * PAGE), 0);
    close(pagemap);
}
END_TEST

START_TEST(failed_move_leaves_the_range)
{
    char *p = region();
    fill(p);
    ck_assert_int_eq(pw_sbx_folios_move(p, PAGES * PAGE, -1), -1);
    check_filled(p);
    ck_assert_int_eq(munmap(p, PAGES * PAGE), 0);
}
END_TEST

static long
folios_made(void)
{
    glob_t g;
    long sum = 0;
    if (glob("/sys/kernel/mm/transparent_hugepage/hugepages-*kB/stats/"
             "anon_fault_alloc",
             0, NULL, &g) != 0) {
        return -1;
    }
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *f = fopen(g.gl_pathv[i], "re");
        long v = 0;
        if (f != NULL && fscanf(f, "%ld", &v) == 1) {
            sum += v;
        }
        if (f != NULL) {
            fclose(f);
        }
    }
    globfree(&g);
    return sum;
}

/* Where the kernel offers them, the moved memory is in large folios. */
START_TEST(move_makes_folios)
{
    char why[160];
    if (!pw_sbx_folios_available(why, sizeof(why))) {
        ck_assert_str_ne(why, "");
        return;
    }
    ck_assert_ptr_nonnull(strstr(why, "kB"));
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    char *p = region();
    memset(p, 7, PAGES * PAGE);
    long before = folios_made();
    ck_assert_int_eq(pw_sbx_folios_move(p, PAGES * PAGE, pagemap), 0);
    ck_assert_int_gt(folios_made(), before);
    ck_assert_int_eq(p[PAGES * PAGE - 1], 7);
    munmap(p, PAGES * PAGE);
    close(pagemap);
}
END_TEST

/* The whole process moved in place, as the zygote is: its C heap and its
 * interpreter's objects still there and working afterwards. */
START_TEST(regroup_a_live_interpreter)
{
    if (PW_SANITIZED) {
        return; /* their shadow memory is theirs (folios.c) */
    }
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct pw_error err = {0};
        if (pw_py_init(&err) < 0 ||
            PyRun_SimpleString("held = [str(i) * 3 for i in range(20000)]\n"
                               "import json, re\n") != 0) {
            _exit(10);
        }
        char *blocks[64];
        for (int i = 0; i < 64; i++) {
            blocks[i] = pw_xmalloc(3000 + (size_t)i * 1000);
            memset(blocks[i], i + 1, 3000 + (size_t)i * 1000);
        }
        long kb = pw_sbx_folios_regroup();
        if (kb <= 0) {
            _exit(11);
        }
        for (int i = 0; i < 64; i++) {
            for (size_t k = 0; k < 3000 + (size_t)i * 1000; k += 97) {
                if (blocks[i][k] != (char)(i + 1)) {
                    _exit(12);
                }
            }
            free(blocks[i]);
        }
        int rc = PyRun_SimpleString(
            "assert held[19999] == '199991999919999'\n"
            "assert sum(len(s) for s in held) == 3 * sum(len(str(i)) for i "
            "in range(20000))\n"
            "more = json.loads(json.dumps({'k': list(range(50000))}))\n"
            "assert re.sub('a+', 'b', 'xaay') == 'xby'\n");
        _exit(rc == 0 ? 0 : 13);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 0);
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("folios");
    TCase *tc = tcase_create("move");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, move_keeps_contents_and_holes);
    tcase_add_test(tc, failed_move_leaves_the_range);
    tcase_add_test(tc, move_makes_folios);
    tcase_add_test(tc, regroup_a_live_interpreter);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
