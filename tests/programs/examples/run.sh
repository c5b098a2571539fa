#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The example programs the README and pyward(1) show
# (tests/programs/examples/*.py): each prints exactly its .out under
# `pyward run`, its .in as standard input, with validation and without;
# and python3.11 prints the same.  Three points per program.
. "${top_srcdir:-.}/tests/lib.sh"

py=${PYTHON3:-python3}
work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT
is311=$("$py" -c 'import sys; print(sys.version_info[:2] == (3, 11))' \
    2>/dev/null)

for f in "$top_srcdir"/tests/programs/examples/*.py; do
    base=${f%.py}
    name=examples/${f##*/}
    stdin=/dev/null
    [ -f "$base.in" ] && stdin=$base.in
    runs_print "$name" "$base.out" "$stdin" "$f"
    if [ "$is311" != True ]; then
        skip "$name: python3 prints the same .out" "no python3.11"
    elif "$py" -I "$f" <"$stdin" >"$work/py.out" 2>"$work/py.err" &&
        cmp -s "$work/py.out" "$base.out"; then
        ok "$name: python3 prints the same .out"
    else
        not_ok "$name: python3 prints the same .out" \
            "$(diff "$base.out" "$work/py.out" | head -n 10)
$(tail -n 5 "$work/py.err")"
    fi
done

done_testing
