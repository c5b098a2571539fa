/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * folios.c - the zygote's memory regrouped in large folios.
 *
 * Every run is a fork of the zygote, and both the fork and the run's exit
 * walk the zygote's anonymous memory (some 11 MB with the basic profile,
 * over 100 MB with data_science): the fork copies an entry and takes a
 * reference per present page, the exit drops them.  Kernels since 6.8 can
 * back anonymous memory with folios of 16 kB to 1 MB where the operator
 * enables them (hugepages-<N>kB/enabled), and fork and exit then handle a
 * folio's pages in one batch.  A write after the fork still copies one
 * page, as before.
 *
 * The zygote's memory was faulted in page by page long before (much of
 * it in the server, then copied on write), so it is moved: each private
 * anonymous mapping's present pages are copied into a new mapping marked
 * MADV_HUGEPAGE, placed at the same offset modulo 2 MiB (folios are
 * aligned in the address space), which mremap then puts in the old one's
 * place.  The copy and the move happen with signals blocked and nothing
 * else running (the zygote is single-threaded), so no write is lost
 * between them; until mremap succeeds the old pages stay where they were.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sandbox/run/folios.h"

#define PAGE       4096UL
#define ALIGN      (2UL << 20) /* the largest folio's alignment */
#define REGION_MAX (1UL << 30) /* larger ones are reservations */
#define MAPS_MAX   (4UL << 20)
#define RANGES_MAX 65536
#define PM_PRESENT (1ULL << 63)
#define PM_SWAPPED (1ULL << 62)
#define THP_DIR    "/sys/kernel/mm/transparent_hugepage"

/* The bracketed word of a THP "enabled" file into WORD, or "". */
static void
thp_choice(const char *path, char *word, size_t n)
{
    char text[128] = "";
    word[0] = '\0';
    FILE *f = fopen(path, "re");
    if (f == NULL) {
        return;
    }
    size_t got = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[got] = '\0';
    char *open = strchr(text, '[');
    char *close = open != NULL ? strchr(open, ']') : NULL;
    if (close != NULL && (size_t)(close - open - 1) < n) {
        memcpy(word, open + 1, (size_t)(close - open - 1));
        word[close - open - 1] = '\0';
    }
}

static bool
marked_ok(const char *word)
{
    return strcmp(word, "always") == 0 || strcmp(word, "madvise") == 0;
}

bool
pw_sbx_folios_available(char *why, size_t n)
{
    if (PW_SANITIZED) {
        snprintf(why, n,
                 "not in a build with the sanitizers (their shadow "
                 "memory is theirs)");
        return false;
    }
    char top[16];
    thp_choice(THP_DIR "/enabled", top, sizeof(top));
    glob_t g;
    if (glob(THP_DIR "/hugepages-*kB/enabled", 0, NULL, &g) != 0) {
        snprintf(why, n,
                 "this kernel has no folios between a page and a "
                 "huge page (6.8 or later has)");
        return false;
    }
    size_t used = 0;
    why[0] = '\0';
    for (size_t i = 0; i < g.gl_pathc; i++) {
        unsigned kb = 0;
        char word[16];
        if (sscanf(g.gl_pathv[i], THP_DIR "/hugepages-%ukB", &kb) != 1 ||
            kb >= 2048) {
            continue;
        }
        thp_choice(g.gl_pathv[i], word, sizeof(word));
        bool on = marked_ok(word) ||
                  (strcmp(word, "inherit") == 0 && marked_ok(top));
        if (on && used < n) {
            used += (size_t)snprintf(why + used, n - used, "%s%u kB",
                                     used > 0 ? ", " : "", kb);
        }
    }
    globfree(&g);
    if (used == 0) {
        snprintf(why, n,
                 "folios of 16 kB to 1 MB are off (echo madvise > " THP_DIR
                 "/hugepages-64kB/enabled)");
        return false;
    }
    return true;
}

/* A new private anonymous read-write mapping of LEN bytes (mmap FLAGS
 * added), or MAP_FAILED. */
static void *
anon(size_t len, int flags)
{
    int prot = PROT_READ | PROT_WRITE;
    flags |= MAP_PRIVATE | MAP_ANONYMOUS;
    /* cppcheck-suppress invalidFunctionArg ; no file: the fd is -1 */
    return mmap(NULL, len, prot, flags, -1, 0);
}

/* A new private anonymous mapping of LEN bytes at ADDR's offset modulo
 * ALIGN, or MAP_FAILED. */
static char *
mapping_like(const char *addr, size_t len)
{
    char *raw = anon(len + ALIGN, 0);
    if (raw == MAP_FAILED) {
        return MAP_FAILED;
    }
    uintptr_t start =
        ((uintptr_t)raw & ~(ALIGN - 1)) + (uintptr_t)addr % ALIGN;
    if (start < (uintptr_t)raw) {
        start += ALIGN;
    }
    char *p = (char *)start;
    if (p > raw) {
        munmap(raw, (size_t)(p - raw));
    }
    if (p + len < raw + len + ALIGN) {
        munmap(p + len, (size_t)(raw + len + ALIGN - (p + len)));
    }
    return p;
}

int
pw_sbx_folios_move(void *addr, size_t len, int pagemap)
{
    char *old = addr;
    size_t pages = len / PAGE;
    size_t vec_len = (pages * sizeof(uint64_t) + PAGE - 1) / PAGE * PAGE;
    uint64_t *vec = anon(vec_len, MAP_NORESERVE);
    if (vec == MAP_FAILED) {
        return -1;
    }
    off_t at = (off_t)((uintptr_t)old / PAGE * sizeof(uint64_t));
    char *fresh = MAP_FAILED;
    int rc = -1;
    errno = 0;
    if (pread(pagemap, vec, pages * sizeof(uint64_t), at) ==
            (ssize_t)(pages * sizeof(uint64_t)) &&
        (fresh = mapping_like(old, len)) != MAP_FAILED) {
        (void)madvise(fresh, len, MADV_HUGEPAGE);
        for (size_t i = 0; i < pages; i++) {
            if ((vec[i] & (PM_PRESENT | PM_SWAPPED)) != 0) {
                memcpy(fresh + i * PAGE, old + i * PAGE, PAGE);
            }
        }
        rc = mremap(fresh, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, old) ==
                     MAP_FAILED
                 ? -1
                 : 0;
    } else if (errno == 0) {
        errno = EIO;
    }
    int saved = errno;
    if (rc < 0 && fresh != MAP_FAILED) {
        munmap(fresh, len);
    }
    munmap(vec, vec_len);
    errno = saved;
    return rc;
}

struct range {
    uintptr_t start, end;
};

/* The process's private anonymous read-write mappings (and its C heap)
 * into R (at most MAX); returns how many, or -1. */
static long
list_ranges(char *buf, struct range *r, size_t max)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    size_t n = 0;
    ssize_t got;
    while (n < MAPS_MAX - 1 &&
           (got = read(fd, buf + n, MAPS_MAX - 1 - n)) > 0) {
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    long count = 0;
    for (char *line = buf, *nl; (nl = strchr(line, '\n')) != NULL;
         line = nl + 1) {
        *nl = '\0';
        unsigned long a, b, off, ino;
        char perm[8], dev[16];
        int name = 0;
        if (sscanf(line, "%lx-%lx %7s %lx %15s %lu %n", &a, &b, perm, &off,
                   dev, &ino, &name) < 6 ||
            strcmp(perm, "rw-p") != 0 || ino != 0 ||
            (line[name] != '\0' && strcmp(line + name, "[heap]") != 0) ||
            b - a < 2 * PAGE || b - a > REGION_MAX || (size_t)count >= max) {
            continue;
        }
        r[count++] = (struct range){a, b};
    }
    return count;
}

static bool
overlaps(const struct range *r, const void *p, size_t len)
{
    uintptr_t s = (uintptr_t)p;
    return r->start < s + len && s < r->end;
}

long
pw_sbx_folios_regroup(void)
{
    size_t ranges_len = RANGES_MAX * sizeof(struct range);
    /* MAP_NORESERVE: mappings of their own (not merged into a neighbour
     * of the same kind), left out of the move below. */
    char *buf = anon(MAPS_MAX, MAP_NORESERVE);
    struct range *r = anon(ranges_len, MAP_NORESERVE);
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    long n = buf != MAP_FAILED && r != MAP_FAILED && pagemap >= 0
                 ? list_ranges(buf, r, RANGES_MAX)
                 : -1;
    int saved = errno;
    long moved = n < 0 ? -1 : 0;
    for (long i = 0; i < n; i++) {
        size_t len = r[i].end - r[i].start;
        /* A range that could not be moved stays as it was. */
        if (!overlaps(&r[i], buf, MAPS_MAX) &&
            !overlaps(&r[i], r, ranges_len) &&
            pw_sbx_folios_move((void *)r[i].start, len, pagemap) == 0) {
            moved += (long)(len >> 10);
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (pagemap >= 0) {
        close(pagemap);
    }
    if (r != MAP_FAILED) {
        munmap(r, ranges_len);
    }
    if (buf != MAP_FAILED) {
        munmap(buf, MAPS_MAX);
    }
    errno = saved;
    return moved;
}
