#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# clang-tidy (checks in .clang-tidy, all as errors) over every C source:
# one TAP point a file.  CFLAGS for the sources come from the build.
#
# Two files at a time (TIDY_JOBS), and a file whose preprocessed text,
# flags, .clang-tidy and clang-tidy version are those of an earlier
# clean pass is not checked again: the key of each clean pass is kept in
# $top_builddir/tests/lint/tidy-cache/ (TIDY_CACHE=off checks every file).
# A finding is never cached, so a file that failed is checked each time.
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

CLANG_TIDY=${CLANG_TIDY:-clang-tidy}
if ! command -v "$CLANG_TIDY" >/dev/null 2>&1; then
    echo "1..0 # SKIP clang-tidy not installed"
    exit 0
fi
builddir=$(cd "$top_builddir" && pwd)
cd "$top_srcdir" || exit 1
if [ -d .git ] && command -v git >/dev/null 2>&1; then
    files=$(git ls-files 'src/*.c' 'validator/*.c')
else
    files=$(find src validator -name '*.c' | sort)
fi
flags="-std=gnu11 -I$builddir -Isrc -I. -DPW_LINT_STUBS $TIDY_CFLAGS"
cache=$builddir/tests/lint/tidy-cache
out=$(mktemp -d "${TMPDIR:-/tmp}/pyward-tidy.XXXXXX")
trap 'rm -rf "$out"' EXIT
mkdir -p "$cache"
salt=$( (
    "$CLANG_TIDY" --version
    cat .clang-tidy
    echo "$flags"
) | sha256sum | cut -c1-64)

i=0
for f in $files; do
    i=$((i + 1))
    echo "$i $f"
done >"$out/list"
export CLANG_TIDY flags cache out salt
xargs -P "${TIDY_JOBS:-2}" -L 1 sh "$(pwd)/tests/lint/tidy-one.sh" \
    <"$out/list"

while read -r n f; do
    if [ -f "$out/$n.ok" ]; then
        ok "clang-tidy $f"
    else
        not_ok "clang-tidy $f" "$(cat "$out/$n.fail" 2>/dev/null)"
    fi
done <"$out/list"
done_testing
