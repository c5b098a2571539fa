#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The beginner corpus (tests/programs/beginner/cases/) is what it claims:
# every program runs under plain CPython 3.11 without error and prints
# exactly its .out file (reading its .in file, if any, as stdin) whatever
# the hash seed; one point per program.  A last point checks that the
# programs only use what the sandbox offers (lint.py).
. "${top_srcdir:-.}/tests/lib.sh"

py=${PYTHON3:-python3}
case $("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) in
3.11) ;;
*)
    echo "1..0 # SKIP CPython 3.11 not found as \$PYTHON3 ($py)"
    exit 0
    ;;
esac

cases=$top_srcdir/tests/programs/beginner/cases
work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT

for f in "$cases"/*.py; do
    base=${f%.py}
    name="beginner/$(basename "$f")"
    stdin=/dev/null
    if [ -f "$base.in" ]; then
        stdin=$base.in
    fi
    why=
    for seed in 0 1; do
        if ! (cd "$work" && PYTHONHASHSEED=$seed "$py" -I "$f" <"$stdin" \
            >"$work/out" 2>"$work/err"); then
            why="seed $seed: $(tail -n 5 "$work/err")"
        elif [ -s "$work/err" ]; then
            why="seed $seed: stderr: $(head -n 5 "$work/err")"
        elif ! cmp -s "$work/out" "$base.out"; then
            why="seed $seed: $(diff "$base.out" "$work/out" | head -n 10)"
        fi
        if [ -n "$why" ]; then
            break
        fi
    done
    if [ -z "$why" ]; then
        ok "$name: prints its .out"
    else
        not_ok "$name: prints its .out" "$why"
    fi
done

if out=$("$py" "$top_srcdir/tests/programs/beginner/lint.py" \
    "$top_srcdir/rules/profiles.json" \
    "$cases"/*.py 2>&1); then
    ok "beginner programs use only the sandbox's builtins and basic modules"
else
    not_ok "beginner programs use only the sandbox's builtins and basic modules" \
        "$out"
fi

done_testing
