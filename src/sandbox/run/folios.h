/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * folios.h - the zygote's memory regrouped in large folios, when the
 * host's kernel offers them (doc/PERFORMANCE.md, doc/DEPLOY.md).
 */
#ifndef PW_SANDBOX_FOLIOS_H
#define PW_SANDBOX_FOLIOS_H

#include <stdbool.h>
#include <stddef.h>

/* True if the kernel hands out anonymous folios larger than a page and
 * smaller than a huge page to memory marked MADV_HUGEPAGE
 * (/sys/kernel/mm/transparent_hugepage/hugepages-<N>kB/enabled) and this
 * is not a build with the sanitizers; WHY (N bytes) says which sizes, or
 * why not. */
bool pw_sbx_folios_available(char *why, size_t n);

/* Move the contents of [ADDR, ADDR + LEN) (page-aligned, one private
 * anonymous read-write mapping or part of one) into new memory marked
 * MADV_HUGEPAGE, at the same address, the pages never touched left
 * untouched.  The old pages are kept until the move is done: on failure
 * the range is as it was.  0, or -1 with errno. */
int pw_sbx_folios_move(void *addr, size_t len, int pagemap);

/* In a single-threaded process about to fork many children: every
 * private anonymous read-write mapping of the process (the interpreter's
 * arenas, the C heap) moved by pw_sbx_folios_move, signals blocked
 * meanwhile.  A fork then copies, and an exit frees, such memory a folio
 * at a time instead of a page at a time.  Returns the kilobytes moved, or
 * -1 with errno (a range that could not be moved is left as it was). */
long pw_sbx_folios_regroup(void);

#endif
