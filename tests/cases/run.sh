#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Lint fixtures, the ruff way: tests/cases/NAME.py is checked with the flags
# in NAME.args (if any) and the output must equal NAME.out line for line
# (paths shown as basenames).  The exit status must be 1 when there is
# output and 0 when there is none.  UPDATE=1 rewrites the .out files.
. "${top_srcdir:-.}/tests/lib.sh"

cases="$top_srcdir/tests/cases"
tmp=$(tmpdir_new)
trap 'rm -rf "$tmp"' EXIT

for py in "$cases"/*.py; do
    name=$(basename "$py" .py)
    args=
    if [ -f "$cases/$name.args" ]; then
        args=$(cat "$cases/$name.args")
    fi
    # shellcheck disable=SC2086
    (cd "$cases" && "$PYWARD" check -q --show-hint $args "$name.py") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "${UPDATE:-}" = 1 ]; then
        cp "$tmp/out" "$cases/$name.out"
    fi
    want=0
    if [ -s "$tmp/out" ]; then
        want=1
    fi
    if [ ! -f "$cases/$name.out" ]; then
        not_ok "$name" "missing $name.out (run with UPDATE=1)"
    elif ! diff -u "$cases/$name.out" "$tmp/out" >"$tmp/diff"; then
        not_ok "$name" "$(cat "$tmp/diff" "$tmp/err")"
    elif [ "$rc" != "$want" ]; then
        not_ok "$name" "exit $rc, expected $want: $(cat "$tmp/err")"
    elif [ -s "$tmp/err" ]; then
        not_ok "$name" "unexpected stderr: $(cat "$tmp/err")"
    else
        ok "$name"
    fi
done

done_testing
