#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Idioms python3 runs that the sandbox accepts (tests/programs/idioms/*.py):
# private names on the program's own classes, the naming dunders,
# obj.__class__, __future__ imports.  Each program, under the profiles of
# its "# profile:" line (basic), must pass `pyward check` with no finding
# and print its .out under `pyward run`, with validation and without; the
# .out is python3's output, checked when python3 is 3.11 and has what the
# program imports.
. "${top_srcdir:-.}/tests/lib.sh"

py=${PYTHON3:-python3}
work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT
is311=no
case $("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' \
    2>/dev/null) in
3.11) is311=yes ;;
esac

for f in "$top_srcdir"/tests/programs/idioms/*.py; do
    name=$(basename "$f" .py)
    want=${f%.py}.out
    profile=$(sed -n 's/^# profile: *//p' "$f" | head -n 1)
    profile=${profile:-basic}
    if out=$("$PYWARD" check --profile "$profile" "$f" 2>&1); then
        ok "$name: pyward check accepts it"
    else
        not_ok "$name: pyward check accepts it" "$out"
    fi
    runs_print "$name" "$want" /dev/null --profile "$profile" "$f"
    if [ "$is311" = yes ] && (cd "$work" && "$py" -I "$f" </dev/null \
        >"$work/py.out" 2>"$work/py.err"); then
        if cmp -s "$work/py.out" "$want"; then
            ok "$name: python3 prints the same .out"
        else
            not_ok "$name: python3 prints the same .out" \
                "$(diff "$want" "$work/py.out" | head -n 10)"
        fi
    elif grep -q "ModuleNotFoundError" "$work/py.err" 2>/dev/null ||
        [ "$is311" = no ]; then
        skip "$name: python3 prints the same .out" \
            "no python3.11 with its modules"
    else
        not_ok "$name: python3 prints the same .out" \
            "$(tail -n 5 "$work/py.err")"
    fi
done

done_testing
