#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The areas' dependencies point one way: cli -> server -> grade ->
# {validator, sandbox} -> core (src/cli/, src/server/, src/grade/,
# validator/, src/sandbox/, src/core/).  One TAP point a source file under src/ and validator/:
# every #include "..." of it names a header by its area ("core/util.h",
# "validator/diag.h"; config.h and the generated
# src/sandbox/interp/guard-modules.inc aside) of its own area or of one below it, and validator and sandbox
# never include each other.  Then one point for the pairs: no two .c
# files depend on each other, where A.c depends on B.h when A.c or A.h
# includes B.h (A.c -> B.h and B.c -> A.h is a cycle).
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

cd "$top_srcdir" || exit 1
files=$(find src validator -name '*.[ch]' | LC_ALL=C sort)
if [ -z "$files" ]; then
    not_ok "the source files are found" "no .c or .h under $top_srcdir/src"
    done_testing
fi

# area FILE-OR-INCLUDE: the area a path is in (empty: none).
area() {
    case "$1" in
    src/core/* | core/*) echo core ;;
    src/sandbox/* | sandbox/*) echo sandbox ;;
    src/server/* | server/*) echo server ;;
    src/grade/* | grade/*) echo grade ;;
    src/cli/* | cli/*) echo cli ;;
    validator/*) echo validator ;;
    *) echo "" ;;
    esac
}

# below FROM TO: true if area FROM may include a header of area TO.
below() {
    [ "$1" = "$2" ] && return 0
    case "$1:$2" in
    cli:server | cli:grade | cli:validator | cli:sandbox | cli:core) return 0 ;;
    server:grade | server:validator | server:sandbox | server:core) return 0 ;;
    grade:validator | grade:sandbox | grade:core) return 0 ;;
    validator:core | sandbox:core) return 0 ;;
    esac
    return 1
}

includes() {
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

for f in $files; do
    from=$(area "$f")
    bad=""
    for inc in $(includes "$f"); do
        case "$inc" in
        config.h | src/sandbox/interp/guard-modules.inc) continue ;;
        esac
        to=$(area "$inc")
        if [ -z "$to" ]; then
            bad="$bad
$inc: no area (include it as \"AREA/$inc\")"
        elif ! below "$from" "$to"; then
            bad="$bad
$inc: $to is not below $from"
        fi
    done
    if [ -z "$bad" ]; then
        ok "$f: includes only its own area and the areas below"
    else
        not_ok "$f: includes only its own area and the areas below" \
            "${bad#?}"
    fi
done

# The headers each .c file depends on: its own includes and its
# header's, as paths under src/ or the top ("core/util.h" is
# src/core/util.h); one "FILE HEADER" line each.
work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT
for c in $(printf '%s\n' $files | grep '\.c$'); do
    h=${c%.c}.h
    {
        includes "$c"
        [ -f "$h" ] && includes "$h"
    } | while IFS= read -r inc; do
        if [ -f "src/$inc" ]; then
            echo "$c src/$inc"
        elif [ -f "$inc" ]; then
            echo "$c $inc"
        fi
    done
done | LC_ALL=C sort -u >"$work/deps"

cycles=$(while read -r c h; do
    other=${h%.h}.c
    # Each pair once (from its first file), and only .c files' headers.
    [ "$c" \< "$other" ] && [ -f "$other" ] || continue
    if grep -qx "$other ${c%.c}.h" "$work/deps"; then
        echo "$c <-> $other"
    fi
done <"$work/deps" | LC_ALL=C sort -u)
if [ -z "$cycles" ]; then
    ok "no two files depend on each other"
else
    not_ok "no two files depend on each other" "$cycles"
fi
done_testing
