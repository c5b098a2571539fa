/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * util.c - allocation, byte buffer, file and fd helpers.
 *
 * Defines the helpers without a prefix of their own: pw_x* allocation,
 * pw_buf_*, fd, time and size helpers.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "core/log.h"
#include "core/util.h"

void *
pw_xmalloc(size_t n)
{
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL) {
        pw_die_oom();
    }
    return p;
}

void *
pw_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count == 0 ? 1 : count, size == 0 ? 1 : size);
    if (p == NULL) {
        pw_die_oom();
    }
    return p;
}

void *
pw_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n == 0 ? 1 : n);
    if (q == NULL) {
        pw_die_oom();
    }
    return q;
}

char *
pw_xstrdup(const char *s)
{
    char *p = strdup(s);
    if (p == NULL) {
        pw_die_oom();
    }
    return p;
}

char *
pw_xstrndup(const char *s, size_t n)
{
    char *p = strndup(s, n);
    if (p == NULL) {
        pw_die_oom();
    }
    return p;
}

char *
pw_xasprintf(const char *fmt, ...)
{
    char *s = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) {
        pw_die_oom();
    }
    return s;
}

void
pw_buf_init(struct pw_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void
pw_buf_free(struct pw_buf *b)
{
    free(b->data);
    pw_buf_init(b);
}

static void
buf_reserve(struct pw_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1) {
        pw_die_oom();
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap) {
        return;
    }
    size_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap < need) {
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    }
    b->data = pw_xrealloc(b->data, cap);
    b->cap = cap;
}

void
pw_buf_append(struct pw_buf *b, const void *p, size_t n)
{
    buf_reserve(b, n);
    if (n > 0) {
        memcpy(b->data + b->len, p, n);
    }
    b->len += n;
    b->data[b->len] = '\0';
}

void
pw_buf_printf(struct pw_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        /* Only EOVERFLOW with pyward's formats: over INT_MAX bytes. */
        pw_die_oom();
    }
    buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    (void)vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void
pw_buf_replace_all(struct pw_buf *b, const char *text, const char *from,
                   const char *to)
{
    const size_t m = strlen(from);
    for (const char *at; m > 0 && (at = strstr(text, from)) != NULL;
         text = at + m) {
        pw_buf_append(b, text, (size_t)(at - text));
        pw_buf_append(b, to, strlen(to));
    }
    pw_buf_append(b, text, strlen(text));
}

void
pw_buf_rename_lines(struct pw_buf *b, const char *text, size_t len,
                    const char *from, const char *to, bool *line_start)
{
    const size_t m = strlen(from);
    size_t done = 0;
    for (size_t i = 0; i + m + 1 < len; i++) {
        bool start = i == 0 ? *line_start : text[i - 1] == '\n';
        if (start && memcmp(text + i, from, m) == 0 && text[i + m] == ':' &&
            isdigit((unsigned char)text[i + m + 1])) {
            pw_buf_append(b, text + done, i - done);
            pw_buf_append(b, to, strlen(to));
            done = i + m;
        }
    }
    pw_buf_append(b, text + done, len - done);
    if (len > 0) {
        *line_start = text[len - 1] == '\n';
    }
}

char *
pw_buf_take(struct pw_buf *b, size_t *len)
{
    if (b->data == NULL) {
        buf_reserve(b, 0);
        b->data[0] = '\0';
    }
    char *p = b->data;
    if (len != NULL) {
        *len = b->len;
    }
    pw_buf_init(b);
    return p;
}

int
pw_read_fd(int fd, size_t max, struct pw_buf *b, struct pw_error *err)
{
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof(chunk));
        if (n == 0) {
            return 0;
        }
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return pw_fail_errno(err, PW_ERR_IO, "read");
        }
        if (max != 0 && b->len + (size_t)n > max) {
            return pw_fail(err, PW_ERR_INPUT, "input larger than %zu bytes",
                           max);
        }
        pw_buf_append(b, chunk, (size_t)n);
    }
}

int
pw_read_file(const char *path, size_t max, struct pw_buf *b,
             struct pw_error *err)
{
    PW_AUTOFD int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return pw_fail_errno(err, PW_ERR_IO, "%s", path);
    }
    if (pw_read_fd(fd, max, b, err) < 0) {
        char msg[256];
        if (err != NULL) {
            (void)snprintf(msg, sizeof(msg), "%.200s", err->message);
            (void)snprintf(err->message, sizeof(err->message), "%s: %s", path,
                           msg);
        }
        return -1;
    }
    return 0;
}

int
pw_write_all(int fd, const void *p, size_t n)
{
    const char *s = p;
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

int
pw_set_cloexec(int fd, bool on)
{
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0) {
        return -1;
    }
    flags = on ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC;
    return fcntl(fd, F_SETFD, flags);
}

int
pw_set_nonblock(int fd, bool on)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) {
        return -1;
    }
    flags = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK;
    return fcntl(fd, F_SETFL, flags);
}

double
pw_now(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

long long
pw_parse_size(const char *s)
{
    if (s == NULL || !isdigit((unsigned char)*s)) {
        return -1;
    }
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0) {
        return -1;
    }
    unsigned long long mult = 1;
    switch (tolower((unsigned char)*end)) {
    case '\0':
        break;
    case 'k':
        mult = 1ULL << 10;
        break;
    case 'm':
        mult = 1ULL << 20;
        break;
    case 'g':
        mult = 1ULL << 30;
        break;
    default:
        return -1;
    }
    if (*end != '\0') {
        end++;
        if (tolower((unsigned char)*end) == 'b' ||
            tolower((unsigned char)*end) == 'i') {
            end += (tolower((unsigned char)*end) == 'i' &&
                    tolower((unsigned char)end[1]) == 'b')
                       ? 2
                       : 1;
        }
        if (*end != '\0') {
            return -1;
        }
    }
    if (v > (unsigned long long)LLONG_MAX / mult) {
        return -1;
    }
    return (long long)(v * mult);
}

bool
pw_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *
pw_exe_dir(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n <= 0) {
        return NULL;
    }
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash == NULL) {
        return NULL;
    }
    *slash = '\0';
    return pw_xstrdup(buf[0] != '\0' ? buf : "/");
}

int
pw_send_fds(int sock, const void *data, size_t len, const int *fds,
            size_t nfds)
{
    union {
        char buf[CMSG_SPACE(PW_FDS_MAX * sizeof(int))];
        struct cmsghdr align;
    } u;
    memset(&u, 0, sizeof(u));
    struct iovec iov = {.iov_base = (void *)data, .iov_len = len};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (nfds > PW_FDS_MAX) {
        errno = EINVAL;
        return -1;
    }
    if (nfds > 0) {
        msg.msg_control = u.buf;
        msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
        memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
    }
    ssize_t n = PW_RETRY(sendmsg(sock, &msg, MSG_NOSIGNAL));
    return n == (ssize_t)len ? 0 : -1;
}

/* Append the fds of C to FDS (up to MAX in all), close the others. */
static void
take_fds(struct cmsghdr *c, int *fds, size_t max, size_t *nfds)
{
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) {
        return;
    }
    size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < n; i++) {
        int fd;
        memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        if (*nfds < max) {
            fds[(*nfds)++] = fd;
        } else {
            close(fd);
        }
    }
}

ssize_t
pw_recv_fds(int sock, void *buf, size_t len, int *fds, size_t max,
            size_t *nfds, int flags)
{
    union {
        char buf[CMSG_SPACE(PW_FDS_MAX * sizeof(int))];
        struct cmsghdr align;
    } u;
    struct iovec iov = {.iov_base = buf, .iov_len = len};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = u.buf,
                         .msg_controllen = sizeof(u.buf)};
    ssize_t n = recvmsg(sock, &msg, flags | MSG_CMSG_CLOEXEC);
    if (n < 0) {
        return n;
    }
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL;
         c = CMSG_NXTHDR(&msg, c)) {
        take_fds(c, fds, max, nfds);
    }
    return n;
}

size_t
pw_utf8_cut(const char *s, size_t len, size_t max)
{
    if (len <= max) {
        return len;
    }
    size_t n = max;
    /* Back over continuation bytes to the start of the cut character. */
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80) {
        n--;
    }
    return n;
}
