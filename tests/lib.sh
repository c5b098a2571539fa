# SPDX-License-Identifier: Apache-2.0
# tests/lib.sh - sourced by the shell test drivers.  TAP output: one
# `ok N - name` or `not ok N - name` line per test point, a plan at the end.
# Logs of a failing point go to stderr (kept in the .log by automake).

# The source tree: the nearest folder above the script that holds
# configure.ac (scripts live in tests/ and in folders below it).
if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$(dirname "$0")" && pwd)
    while [ ! -f "$top_srcdir/configure.ac" ] && [ "$top_srcdir" != / ]; do
        top_srcdir=$(dirname "$top_srcdir")
    done
fi
: "${top_builddir:=$top_srcdir}"
: "${PYWARD:=$top_builddir/pyward}"
: "${PYWARD_RULES_DIR:=$top_srcdir/rules}"
export PYWARD PYWARD_RULES_DIR

tap_n=0
tap_failed=0

# ok NAME: a passing point.  not_ok NAME [DETAIL]: a failing one.
ok() {
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - $1"
}

not_ok() {
    tap_n=$((tap_n + 1))
    tap_failed=$((tap_failed + 1))
    echo "not ok $tap_n - $1"
    if [ -n "${2:-}" ]; then
        printf '%s\n' "$2" | sed 's/^/# /' >&2
    fi
}

skip() {
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - $1 # SKIP ${2:-}"
}

# check NAME CMD...: a point that passes when CMD exits 0.
check() {
    name=$1
    shift
    if out=$("$@" 2>&1); then
        ok "$name"
    else
        not_ok "$name" "$out"
    fi
}

# done_testing: print the plan; exit 0 (failures are counted by the driver).
done_testing() {
    echo "1..$tap_n"
    exit 0
}

tmpdir_new() {
    mktemp -d "${TMPDIR:-/tmp}/pyward-test.XXXXXX"
}

# lint_gate: a lint test stops here with PW_LINT=skip (CI's sanitizer
# build, where the same sources are linted once already).
lint_gate() {
    if [ "${PW_LINT:-}" = skip ]; then
        echo "1..0 # SKIP PW_LINT=skip: linted in another build"
        exit 0
    fi
}

# fuzz_seeds TARGET: the seed directories of a fuzz target, space-separated:
# its own corpus, its regression inputs, and for the validator the
# programs the other suites already keep (cases, corpora, red-team attacks
# and the programs that must run).
fuzz_seeds() {
    seeds="$top_srcdir/tests/fuzz/corpus/$1"
    if [ -d "$top_srcdir/tests/fuzz/regress/$1" ]; then
        seeds="$seeds $top_srcdir/tests/fuzz/regress/$1"
    fi
    if [ "$1" = validate ]; then
        for d in tests/cases tests/corpus/beginner tests/corpus/attacks \
            tests/corpus/parity tests/programs; do
            seeds="$seeds $top_srcdir/$d"
        done
        for d in "$top_srcdir"/tests/redteam/*/; do
            seeds="$seeds ${d%/}"
        done
    fi
    echo "$seeds"
}
