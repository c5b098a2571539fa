#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The guard's direct tests: each tests/guard/test_*.py loads the guard's
# parts under plain python3 (no fork, no seccomp) and prints TAP; their
# points are renumbered into this one stream, prefixed with the file name.
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
out=$(tmpdir_new)
trap 'rm -rf "$out"' EXIT
for t in "$top_srcdir"/tests/guard/test_*.py; do
    name=$(basename "$t" .py)
    "$PYTHON3" "$t" >"$out/tap" 2>"$out/err"
    rc=$?
    cat "$out/err" >&2
    points=0
    while IFS= read -r line; do
        case "$line" in
        "ok "*) ok "$name: ${line#* - }" ;;
        "not ok "*) not_ok "$name: ${line#* - }" ;;
        *) continue ;;
        esac
        points=$((points + 1))
    done <"$out/tap"
    if [ "$rc" != 0 ] || [ "$points" = 0 ]; then
        not_ok "$name: runs to the end" "exit $rc, $points points"
    fi
done
done_testing
