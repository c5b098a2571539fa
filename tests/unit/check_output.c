/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_output.c - collecting a run's output/ files (output.c) on
 * real directories planted with the tricks a program could leave behind:
 * symbolic links out of the workspace, a symlinked output/ itself, hard
 * links, a sparse terabyte, files over the caps, many files, a FIFO, a
 * directory, a file whose name lies about its type; and landlock giving
 * a run write access to its workspace only as its capabilities allow.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base64.h"
#include "core/blob.h"
#include "core/profiles.h"
#include "core/reply.h"
#include "sandbox/os/layers.h"
#include "sandbox/run/output.h"
#include "core/util.h"

static char root[64];
static char outside[96];
static int root_fd = -1;
static const struct pw_sbx_output_caps caps = {16, 4 << 20, 5 << 20};

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void
put(const char *name, const char *data, size_t len)
{
    char path[160];
    snprintf(path, sizeof(path), "%s/%s", root, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
    close(fd);
}

static void
setup(void)
{
    snprintf(root, sizeof(root), "/tmp/pyward-check-output.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(outside, sizeof(outside), "%s.secret", root);
    int fd = open(outside, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "host secret", 11), 11);
    close(fd);
    char out[96];
    snprintf(out, sizeof(out), "%s/output", root);
    ck_assert_int_eq(mkdir(out, 0755), 0);
    root_fd = open(root, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(root_fd, 0);
}

static void
teardown(void)
{
    close(root_fd);
    (void)nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    unlink(outside);
}

/* The entry called NAME in LIST (borrowed), or NULL. */
static json_t *
find(json_t *list, const char *name)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        if (strcmp(json_string_value(json_object_get(e, "name")), name) == 0) {
            return e;
        }
    }
    return NULL;
}

static json_t *
collect(long long *omitted)
{
    struct pw_blobs blobs = {NULL, 0};
    json_t *list = pw_sbx_output_collect(root_fd, &caps, omitted, &blobs);
    /* The files' bytes read while their blobs are open. */
    ck_assert_int_eq(pw_blob_expand(list), 0);
    pw_blobs_clear(&blobs);
    ck_assert_ptr_nonnull(list);
    /* Nothing of the host file ever reaches the result. */
    char *text = json_dumps(list, 0);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_null(strstr(text, "aG9zdCBzZWNyZXQ")); /* base64 of it */
    free(text);
    return list;
}

static void
assert_refused(json_t *list, const char *name, const char *why)
{
    json_t *e = find(list, name);
    ck_assert_msg(e != NULL, "%s not listed", name);
    ck_assert(json_is_false(json_object_get(e, "sent")));
    ck_assert_ptr_null(json_object_get(e, "data"));
    const char *reason = json_string_value(json_object_get(e, "reason"));
    ck_assert_msg(reason != NULL && strstr(reason, why) != NULL,
                  "%s: reason '%s', expected '%s'", name, reason, why);
}

START_TEST(sends_regular_files_with_type_and_size)
{
    static const char png[] = "\x89PNG\r\n\x1a\n-rest";
    put("output/plot.png", png, sizeof(png) - 1);
    put("output/notes.txt", "hello", 5);
    put("output/fake.png", "not an image", 12);
    long long omitted = -1;
    json_auto_t *list = collect(&omitted);
    ck_assert_int_eq(omitted, 0);
    ck_assert_int_eq(json_array_size(list), 3);
    /* Sorted by name. */
    ck_assert_str_eq(
        json_string_value(json_object_get(json_array_get(list, 0), "name")),
        "fake.png");
    json_t *txt = find(list, "notes.txt");
    ck_assert_str_eq(json_string_value(json_object_get(txt, "data")),
                     "aGVsbG8=");
    ck_assert_str_eq(json_string_value(json_object_get(txt, "mime_type")),
                     "text/plain");
    ck_assert_int_eq(json_integer_value(json_object_get(txt, "size")), 5);
    ck_assert_str_eq(json_string_value(
                         json_object_get(find(list, "plot.png"), "mime_type")),
                     "image/png");
    /* A name that lies about the content is not sent as an image. */
    ck_assert_str_eq(json_string_value(
                         json_object_get(find(list, "fake.png"), "mime_type")),
                     "application/octet-stream");
}
END_TEST

START_TEST(links_are_not_followed)
{
    char path[160];
    snprintf(path, sizeof(path), "%s/output/passwd", root);
    ck_assert_int_eq(symlink("/etc/passwd", path), 0);
    snprintf(path, sizeof(path), "%s/output/secret", root);
    ck_assert_int_eq(symlink(outside, path), 0);
    snprintf(path, sizeof(path), "%s/output/etc", root);
    ck_assert_int_eq(symlink("/etc", path), 0);
    snprintf(path, sizeof(path), "%s/output/hard", root);
    ck_assert_int_eq(link(outside, path), 0);
    long long omitted = -1;
    json_auto_t *list = collect(&omitted);
    ck_assert_int_eq(json_array_size(list), 4);
    assert_refused(list, "passwd", "symbolic link");
    assert_refused(list, "secret", "symbolic link");
    assert_refused(list, "etc", "symbolic link");
    assert_refused(list, "hard", "hard link");
}
END_TEST

START_TEST(symlinked_output_dir_is_not_followed)
{
    char out[96], target[96];
    snprintf(out, sizeof(out), "%s/output", root);
    snprintf(target, sizeof(target), "%s/elsewhere", root);
    ck_assert_int_eq(rmdir(out), 0);
    ck_assert_int_eq(mkdir(target, 0755), 0);
    put("elsewhere/leak.txt", "leak", 4);
    ck_assert_int_eq(symlink(target, out), 0);
    long long omitted = -1;
    json_auto_t *list = collect(&omitted);
    ck_assert_int_eq(json_array_size(list), 0);
}
END_TEST

START_TEST(sizes_are_capped)
{
    char path[160];
    snprintf(path, sizeof(path), "%s/output/sparse.bin", root);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, 1LL << 40), 0); /* 1 TiB, no blocks */
    close(fd);
    size_t three = 3 << 20;
    char *big = calloc(1, (4 << 20) + 1);
    ck_assert_ptr_nonnull(big);
    put("output/a-3m.bin", big, three);
    put("output/b-3m.bin", big, three); /* past the 5 MiB total */
    put("output/c-over.bin", big, (4 << 20) + 1);
    free(big);
    long long omitted = -1;
    json_auto_t *list = collect(&omitted);
    ck_assert(json_is_true(json_object_get(find(list, "a-3m.bin"), "sent")));
    assert_refused(list, "b-3m.bin", "cap on all files");
    assert_refused(list, "c-over.bin", "cap per file");
    assert_refused(list, "sparse.bin", "cap per file");
    ck_assert_int_eq(
        json_integer_value(json_object_get(find(list, "sparse.bin"), "size")),
        1LL << 40);
}
END_TEST

START_TEST(many_files_are_counted_not_listed)
{
    for (int i = 0; i < 40; i++) {
        char name[64];
        snprintf(name, sizeof(name), "output/f%02d.txt", i);
        put(name, "x", 1);
    }
    long long omitted = -1;
    json_auto_t *list = collect(&omitted);
    ck_assert_int_eq(json_array_size(list), 16);
    ck_assert_int_eq(omitted, 24);
    ck_assert_str_eq(
        json_string_value(json_object_get(json_array_get(list, 15), "name")),
        "f15.txt");
}
END_TEST

START_TEST(special_files_are_not_opened)
{
    char path[160];
    snprintf(path, sizeof(path), "%s/output/pipe", root);
    ck_assert_int_eq(mkfifo(path, 0644), 0); /* opening it would block */
    snprintf(path, sizeof(path), "%s/output/sub", root);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    put("output/sub/inner.txt", "inner", 5);
    long long omitted = -1;
    json_auto_t *list = collect(&omitted);
    ck_assert_int_eq(json_array_size(list), 2);
    assert_refused(list, "pipe", "not a regular file");
    assert_refused(list, "sub", "not a regular file");
}
END_TEST

START_TEST(no_output_dir_gives_an_empty_list)
{
    char out[96];
    snprintf(out, sizeof(out), "%s/output", root);
    ck_assert_int_eq(rmdir(out), 0);
    long long omitted = -1;
    json_auto_t *list = collect(&omitted);
    ck_assert_int_eq(json_array_size(list), 0);
    ck_assert_int_eq(omitted, 0);
}
END_TEST

START_TEST(base64_vectors)
{
    static const char *const in[] = {"",     "f",     "fo",    "foo",
                                     "foob", "fooba", "foobar"};
    static const char *const out[] = {
        "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        json_auto_t *s =
            pw_base64_json((const unsigned char *)in[i], strlen(in[i]));
        ck_assert_str_eq(json_string_value(s), out[i]);
        struct pw_buf b;
        pw_buf_init(&b);
        ck_assert_int_eq(pw_base64_decode(out[i], &b), 0);
        ck_assert_uint_eq(b.len, strlen(in[i]));
        ck_assert(b.len == 0 || memcmp(b.data, in[i], b.len) == 0);
        pw_buf_free(&b);
    }
    static const char *const bad[] = {"Zg=", "Z===", "Zg==Zg==", "Zm9*",
                                      "=Zm9"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct pw_buf b;
        pw_buf_init(&b);
        ck_assert_msg(pw_base64_decode(bad[i], &b) < 0, "%s", bad[i]);
        pw_buf_free(&b);
    }
}
END_TEST

/* In a child under landlock for the capabilities ALLOWS: bit 0 set if a
 * file can be created at the workspace's top, bit 1 if in its output/. */
static int
landlock_writes(const struct pw_sbx_layers *l, unsigned allows)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (pw_sbx_landlock(l, root, allows) < 0) {
            _exit(99);
        }
        static const char *const names[] = {"top.txt", "output/out.txt"};
        int bits = 0;
        for (int i = 0; i < 2; i++) {
            char path[160];
            snprintf(path, sizeof(path), "%s/%s", root, names[i]);
            int fd = open(path, O_WRONLY | O_CREAT, 0644);
            if (fd >= 0) {
                bits |= 1 << i;
                close(fd);
                unlink(path);
            } else if (errno != EACCES) {
                _exit(98);
            }
        }
        _exit(bits);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

START_TEST(landlock_follows_the_capabilities)
{
    struct pw_sbx_layers l;
    pw_sbx_layers_probe(&l);
    if (l.landlock_abi <= 0) {
        pw_sbx_layers_clear(&l);
        return; /* no landlock on this kernel: nothing to check */
    }
    ck_assert_int_eq(landlock_writes(&l, PW_CAP_WORKSPACE_FILES), 3);
    ck_assert_int_eq(landlock_writes(&l, PW_CAP_OUTPUT_FILES), 2);
    ck_assert_int_eq(landlock_writes(&l, 0), 0);
    pw_sbx_layers_clear(&l);
}
END_TEST

/* Whole quanta decoded at once make what one character at a time makes,
 * and refuse what it refuses, wherever the pieces are cut. */
START_TEST(base64_pieces_as_characters)
{
    const char *texts[] = {
        "",    "QQ==", "QUI=",     "QUJD", "QUJDRA==", "AP8A/+/+",
        "QQ=", "Q===", "QQ==QQ==", "QU*D", "QUJDR",    "QUJD\n"};
    for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
        const char *s = texts[t];
        size_t n = strlen(s);
        struct pw_buf one;
        pw_buf_init(&one);
        int want = pw_base64_decode(s, &one);
        for (size_t cut = 0; cut <= n; cut++) {
            struct pw_base64_dec d = {0};
            unsigned char out[64];
            long a = pw_base64_dec_some(&d, s, cut, out);
            long b =
                a < 0 ? -1 : pw_base64_dec_some(&d, s + cut, n - cut, out + a);
            int got = b < 0 ? -1 : pw_base64_dec_end(&d);
            ck_assert_int_eq(got, want);
            if (want == 0) {
                ck_assert_uint_eq((size_t)(a + b), one.len);
                ck_assert(one.len == 0 || memcmp(out, one.data, one.len) == 0);
            }
        }
        pw_buf_free(&one);
    }
}
END_TEST

/* A text blob of the N BYTES (an unlinked file; *FDP another fd of
 * it), its escaped length computed. */
static struct pw_blob *
text_blob(const unsigned char *bytes, size_t n, int *fdp)
{
    char path[] = "/tmp/pyward-check-text-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    ck_assert_int_eq(write(fd, bytes, n), (ssize_t)n);
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    *fdp = dup(fd);
    struct pw_blob *b = pw_blob_new(fd, &st);
    pw_blob_set_text(b, pw_reply_escaped(bytes, n));
    return b;
}

/* A text blob goes into a reply as the JSON string jansson makes of its
 * bytes, a bounded chunk a read, its length announced exactly. */
START_TEST(text_blobs_escaped_as_read)
{
    size_t sizes[] = {0, 1, 49151, 49152, 49153, 300000};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t n = sizes[k];
        unsigned char *bytes = malloc(n + 1);
        for (size_t i = 0; i < n; i++) {
            /* ASCII with quotes, backslashes and control characters */
            bytes[i] = (unsigned char)((i * 7919) % 128);
        }
        int fd;
        struct pw_blob *b = text_blob(bytes, n, &fd);
        json_t *res = json_pack("{s:o}", "content", pw_blob_token(b));
        struct pw_reply *r = pw_reply_new();
        ck_assert_int_eq(pw_reply_add_json(r, res, JSON_COMPACT, 0), 0);
        pw_blob_unref(b);
        size_t size = pw_reply_size(r);
        char *buf = malloc(8u << 20);
        size_t len = 0;
        size_t got;
        while ((got = pw_reply_read(r, buf + len, (8u << 20) - len)) > 0) {
            ck_assert_uint_le(got, 65536 + 64);
            len += got;
        }
        ck_assert_uint_eq(len, size);
        json_t *want_s = json_stringn((const char *)bytes, n);
        json_t *want = json_pack("{s:o}", "content", want_s);
        char *flat = json_dumps(want, JSON_COMPACT);
        ck_assert_uint_eq(strlen(flat), len);
        ck_assert(memcmp(flat, buf, len) == 0);
        free(flat);
        json_decref(want);
        pw_reply_free(r);
        close(fd);
        json_decref(res);
        free(buf);
        free(bytes);
    }
}
END_TEST

/* A text blob changed while its reply is read: the rest is spaces, the
 * reply keeps its length and stays JSON. */
START_TEST(text_blob_changed_keeps_its_length)
{
    size_t n = 200000;
    unsigned char *bytes = malloc(n);
    memset(bytes, 'a', n);
    int fd;
    struct pw_blob *b = text_blob(bytes, n, &fd);
    json_t *res = json_pack("{s:o}", "content", pw_blob_token(b));
    struct pw_reply *r = pw_reply_new();
    ck_assert_int_eq(pw_reply_add_json(r, res, JSON_COMPACT, 0), 0);
    pw_blob_unref(b);
    size_t size = pw_reply_size(r);
    char *buf = malloc(size + 1);
    size_t len = pw_reply_read(r, buf, 70000); /* a chunk: then it changes */
    ck_assert_int_eq(pwrite(fd, "\"\"", 2, 100000), 2);
    size_t got;
    while ((got = pw_reply_read(r, buf + len, size + 1 - len)) > 0) {
        len += got;
    }
    ck_assert_uint_eq(len, size);
    ck_assert(pw_reply_failed(r));
    buf[len] = '\0';
    json_t *back = json_loads(buf, 0, NULL);
    ck_assert_ptr_nonnull(back);
    const char *c = json_string_value(json_object_get(back, "content"));
    ck_assert_uint_eq(strlen(c), n);
    ck_assert(c[0] == 'a' && c[n - 1] == ' ');
    json_decref(back);
    pw_reply_free(r);
    json_decref(res);
    close(fd);
    free(buf);
    free(bytes);
}
END_TEST

static Suite *
output_suite(void)
{
    Suite *s = suite_create("output");
    TCase *tc = tcase_create("collect");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, sends_regular_files_with_type_and_size);
    tcase_add_test(tc, links_are_not_followed);
    tcase_add_test(tc, symlinked_output_dir_is_not_followed);
    tcase_add_test(tc, sizes_are_capped);
    tcase_add_test(tc, many_files_are_counted_not_listed);
    tcase_add_test(tc, special_files_are_not_opened);
    tcase_add_test(tc, no_output_dir_gives_an_empty_list);
    tcase_add_test(tc, base64_vectors);
    tcase_add_test(tc, base64_pieces_as_characters);
    tcase_add_test(tc, text_blobs_escaped_as_read);
    tcase_add_test(tc, text_blob_changed_keeps_its_length);
    tcase_add_test(tc, landlock_follows_the_capabilities);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(output_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
