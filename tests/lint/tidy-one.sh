#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tidy-one.sh N FILE: one file of tests/lint/tidy.sh, which sets CLANG_TIDY,
# flags, cache, out and salt.  The verdict goes to $out/N.ok or
# $out/N.fail (the findings); a clean pass leaves its key in $cache.
n=$1 f=$2
key=
# shellcheck disable=SC2086
if [ "${TIDY_CACHE:-on}" != off ] &&
    pre=$(${CC:-cc} -E -P $flags "$f" 2>/dev/null); then
    key=$(printf '%s\n%s\n' "$salt" "$pre" | sha256sum | cut -c1-64)
    if [ -f "$cache/$key" ]; then
        echo cached >"$out/$n.ok"
        exit 0
    fi
fi
# shellcheck disable=SC2086
if res=$("$CLANG_TIDY" --quiet "$f" -- $flags 2>&1); then
    : >"$out/$n.ok"
    if [ -n "$key" ]; then
        : >"$cache/$key"
    fi
else
    printf '%s\n' "$res" | grep -v 'warnings generated' | head -30 \
        >"$out/$n.fail"
fi
