#!/bin/sh
# The beginner corpus is what it claims: every program runs under plain
# CPython 3.11 without error and prints exactly its .out file (reading its
# .in file, if any, as stdin).  One point per program.
. "${top_srcdir:-.}/tests/lib.sh"

py=${PYTHON3:-python3}
case $("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) in
3.11) ;;
*)
    echo "1..0 # SKIP CPython 3.11 not found as \$PYTHON3 ($py)"
    exit 0
    ;;
esac

work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT

for f in "$top_srcdir"/tests/corpus/beginner/*.py; do
    base=${f%.py}
    name="beginner/$(basename "$f")"
    stdin=/dev/null
    if [ -f "$base.in" ]; then
        stdin=$base.in
    fi
    if (cd "$work" && PYTHONHASHSEED=0 "$py" -I "$f" <"$stdin" \
        >"$work/out" 2>"$work/err"); then
        if [ -s "$work/err" ]; then
            not_ok "$name: runs cleanly" "$(head -n 5 "$work/err")"
        elif cmp -s "$work/out" "$base.out"; then
            ok "$name: prints its .out"
        else
            not_ok "$name: prints its .out" \
                "$(diff "$base.out" "$work/out" | head -n 10)"
        fi
    else
        not_ok "$name: runs cleanly" "$(tail -n 5 "$work/err")"
    fi
done

done_testing
