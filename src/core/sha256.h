/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sha256.h - SHA-256 (FIPS 180-4) of a byte string, for the digests the
 * event records carry (the code of a run, the names of tokens).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define PW_SHA256_LEN 32

/* DATA[0..LEN)'s digest into OUT. */
void pw_sha256(const void *data, size_t len, uint8_t out[PW_SHA256_LEN]);
/* The same as 64 lowercase hex digits and a NUL. */
void pw_sha256_hex(const void *data, size_t len,
                   char out[2 * PW_SHA256_LEN + 1]);
