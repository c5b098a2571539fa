/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * output.c - collect the files of a run's output/ directory (parent
 * side, after the child exited): directory fds, O_NOFOLLOW, fstat, caps,
 * and the files' MIME types.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/magic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sandbox/run/record.h"
#include "core/blob.h"
#include "sandbox/run/output.h"
#include "sandbox/run/scratch.h"
#include "sandbox/os/workspace.h"
#include "core/util.h"

#define NAMES_MAX      4096 /* directory entries looked at, at most */
#define NAME_MAX_BYTES 255

static const struct {
    const char *ext;
    const char *mime;
} mime_types[] = {
    {"png", "image/png"},       {"jpg", "image/jpeg"},
    {"jpeg", "image/jpeg"},     {"svg", "image/svg+xml"},
    {"gif", "image/gif"},       {"txt", "text/plain"},
    {"csv", "text/csv"},        {"json", "application/json"},
    {"html", "text/html"},      {"md", "text/markdown"},
    {"pdf", "application/pdf"}, {"xml", "application/xml"},
};

const char *
pw_sbx_output_mime(const char *name, const unsigned char *head, size_t len)
{
    static const unsigned char png[] = {0x89, 'P',  'N',  'G',
                                        '\r', '\n', 0x1a, '\n'};
    static const unsigned char jpeg[] = {0xff, 0xd8, 0xff};
    const char *dot = strrchr(name, '.');
    const char *mime = "application/octet-stream";
    for (size_t i = 0; dot != NULL && i < PW_N_ELEMENTS(mime_types); i++) {
        if (strcasecmp(dot + 1, mime_types[i].ext) == 0) {
            mime = mime_types[i].mime;
        }
    }
    if ((strcmp(mime, "image/png") == 0 &&
         (len < sizeof(png) || memcmp(head, png, sizeof(png)) != 0)) ||
        (strcmp(mime, "image/jpeg") == 0 &&
         (len < sizeof(jpeg) || memcmp(head, jpeg, sizeof(jpeg)) != 0))) {
        return "application/octet-stream"; /* not what the name says */
    }
    return mime;
}

/* A name as JSON: bytes that are not valid UTF-8 become '?'. */
static json_t *
name_json(const char *name)
{
    json_t *s = json_string(name);
    if (s != NULL) {
        return s;
    }
    char safe[NAME_MAX_BYTES + 1];
    snprintf(safe, sizeof(safe), "%s", name);
    for (char *c = safe; *c != '\0'; c++) {
        *c = (*c & 0x80) ? '?' : *c;
    }
    return json_string(safe);
}

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entry names of DFD (owned vector of owned strings; at most
 * NAMES_MAX); *TOTAL receives how many entries there are. */
static char **
list_names(int dfd, size_t *n, long long *total)
{
    *n = 0;
    *total = 0;
    int fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL) {
        if (fd >= 0) {
            close(fd);
        }
        return NULL;
    }
    char **v = pw_xcalloc(NAMES_MAX, sizeof(char *));
    struct dirent *e;
    /* readdir is thread-safe on one DIR (glibc); readdir_r is deprecated */
    /* cppcheck-suppress readdirCalled */
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        (*total)++;
        if (*n < NAMES_MAX) {
            v[(*n)++] = pw_xstrdup(e->d_name);
        }
    }
    closedir(d);
    qsort(v, *n, sizeof(char *), cmp_names);
    return v;
}

/* Why NAME (lstat'ed as ST) is not sent, or NULL; REASON is a buffer. */
static const char *
refusal(const struct stat *st, const struct pw_sbx_output_caps *caps,
        long long sent, char *reason, size_t len)
{
    if (S_ISLNK(st->st_mode)) {
        return "a symbolic link is not followed";
    }
    if (!S_ISREG(st->st_mode)) {
        return "not a regular file";
    }
    if (st->st_nlink > 1) {
        return "a hard link is not read";
    }
    if (st->st_size > caps->max_file_bytes) {
        snprintf(reason, len, "larger than the %lld-byte cap per file",
                 caps->max_file_bytes);
        return reason;
    }
    if (sent + st->st_size > caps->max_total_bytes) {
        snprintf(reason, len, "past the %lld-byte cap on all files",
                 caps->max_total_bytes);
        return reason;
    }
    return NULL;
}

/* Open NAME in DFD without following links, as the same regular file
 * that was lstat'ed as ST.  An fd or -1. */
static int
open_same(int dfd, const char *name, const struct stat *st)
{
    int fd = openat(dfd, name,
                    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat now;
    if (fd >= 0 && (fstat(fd, &now) < 0 || !S_ISREG(now.st_mode) ||
                    now.st_ino != st->st_ino || now.st_dev != st->st_dev ||
                    now.st_nlink > 1 || now.st_size != st->st_size)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Keep the file open as a blob (its bytes are read when its reply is
 * written) and set its type from its head; a reason when that fails. */
static const char *
open_blob(int dfd, const char *name, const struct stat *st,
          struct pw_blob **blob, const char **mime)
{
    if (!pw_blob_room()) {
        return "the server holds too many files for replies not yet "
               "written";
    }
    int fd = open_same(dfd, name, st);
    if (fd < 0) {
        return "changed or vanished while it was read";
    }
    unsigned char head[16];
    ssize_t k = PW_RETRY(pread(fd, head, sizeof(head), 0));
    if (k < 0 || (k < (ssize_t)sizeof(head) && k != st->st_size)) {
        close(fd);
        return "could not be read";
    }
    struct stat now;
    if (fstat(fd, &now) < 0) {
        close(fd);
        return "could not be read";
    }
    *mime = pw_sbx_output_mime(name, head, (size_t)k);
    *blob = pw_blob_new(fd, &now);
    return NULL;
}

/* True if NAME (lstat'ed as ST) was reported as it is now by a call of
 * the same session (CAPS->seen); it is remembered for the next one. */
static bool
seen_before(const char *name, const struct stat *st,
            const struct pw_sbx_output_caps *caps, json_t *now)
{
    if (caps->seen == NULL) {
        return false;
    }
    char key[NAME_MAX_BYTES + 96];
    snprintf(key, sizeof(key), "%s/%llu/%lld.%09ld/%lld", name,
             (unsigned long long)st->st_ino, (long long)st->st_mtim.tv_sec,
             st->st_mtim.tv_nsec, (long long)st->st_size);
    json_object_set_new(now, key, json_true());
    return json_object_get(caps->seen, key) != NULL;
}

/* New reference: the entry for NAME in DFD; *SENT grows by its bytes,
 * and BLOBS by its blob when sent ("data" its placeholder).  NULL:
 * reported before as it is (NOW: the files seen, for a session). */
static json_t *
entry_json(int dfd, const char *name, const struct pw_sbx_output_caps *caps,
           long long *sent, json_t *now, struct pw_blobs *blobs)
{
    struct stat st;
    char buf[96];
    const char *mime = pw_sbx_output_mime(name, NULL, 0);
    bool gone = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0;
    if (!gone && seen_before(name, &st, caps, now)) {
        return NULL;
    }
    const char *why =
        gone ? "vanished" : refusal(&st, caps, *sent, buf, sizeof(buf));
    struct pw_blob *blob = NULL;
    if (why == NULL) {
        why = open_blob(dfd, name, &st, &blob, &mime);
    }
    json_t *e =
        json_pack("{s:o,s:s,s:I,s:b}", "name", name_json(name), "mime_type",
                  mime, "size", (json_int_t)st.st_size, "sent", why == NULL);
    if (why == NULL) {
        *sent += (long long)st.st_size;
        json_object_set_new(e, "data", pw_blob_token(blob));
        pw_blobs_add(blobs, blob);
    } else {
        json_object_set_new(e, "reason", json_string(why));
    }
    return e;
}

json_t *
pw_sbx_output_collect(int root_fd, const struct pw_sbx_output_caps *caps,
                      long long *omitted, struct pw_blobs *blobs)
{
    *omitted = 0;
    json_auto_t *list = json_array();
    int dfd = openat(root_fd, "output",
                     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        return pw_steal(&list);
    }
    size_t n = 0;
    long long total = 0;
    long long sent = 0;
    long long unchanged = 0;
    json_auto_t *now = json_object();
    char **names = list_names(dfd, &n, &total);
    for (size_t i = 0; i < n; i++) {
        json_t *e = (long long)json_array_size(list) < caps->max_files
                        ? entry_json(dfd, names[i], caps, &sent, now, blobs)
                        : NULL;
        if (e != NULL) {
            json_array_append_new(list, e);
        } else if ((long long)json_array_size(list) < caps->max_files) {
            unchanged++;
        }
        free(names[i]);
    }
    free(names);
    close(dfd);
    *omitted = total - unchanged - (long long)json_array_size(list);
    if (caps->seen != NULL) {
        json_object_clear(caps->seen);
        json_object_update(caps->seen, now);
    }
    return pw_steal(&list);
}

void
pw_sbx_output_get(const struct pw_sbx_run *r, json_t **files,
                  long long *omitted, struct pw_blobs *blobs)
{
    *files = NULL;
    *omitted = 0;
    if ((r->caps & PW_CAP_OUTPUT_FILES) == 0 || r->scratch == NULL) {
        return;
    }
    const struct pw_sbx_policy *p = &r->z->policy;
    struct pw_sbx_output_caps caps = {p->output_files, p->output_file_bytes,
                                      p->output_total_bytes, r->seen};
    /* The workspace tmpfs the child handed over, else the host dir. */
    struct statfs fs;
    if (r->ws_fd >= 0 &&
        (fstatfs(r->ws_fd, &fs) < 0 || fs.f_type != TMPFS_MAGIC)) {
        return; /* not what the checklist sends: read nothing */
    }
    if (r->ws_fd < 0 && !pw_sbx_scratch_on_host(r->z, r->caps)) {
        return; /* the workspace never reached the parent */
    }
    int root = r->ws_fd >= 0
                   ? openat(r->ws_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                   : open(r->scratch,
                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (root < 0) {
        return; /* no workspace: no files */
    }
    *files = pw_sbx_output_collect(root, &caps, omitted, blobs);
    close(root);
}
