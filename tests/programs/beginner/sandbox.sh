#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The beginner corpus (tests/programs/beginner/cases/) through the real
# sandbox: every program validates, runs under `pyward run` (all layers
# on) and prints exactly its .out file, reading its .in file as stdin.
# One point per program.
. "${top_srcdir:-.}/tests/lib.sh"

exec 2>&1
work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT

for f in "$top_srcdir"/tests/programs/beginner/cases/*.py; do
    base=${f%.py}
    name="sandbox: beginner/$(basename "$f")"
    stdin=/dev/null
    if [ -f "$base.in" ]; then
        stdin=$base.in
    fi
    if ! "$PYWARD" run "$f" <"$stdin" >"$work/out" 2>"$work/err"; then
        not_ok "$name" "$(tail -n 8 "$work/err")"
    elif ! cmp -s "$work/out" "$base.out"; then
        not_ok "$name" "$(diff "$base.out" "$work/out" | head -n 10)"
    else
        ok "$name"
    fi
done
done_testing
