#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run every libFuzzer target for FUZZ_SECONDS (default 20), starting from
# its seed corpus and regression inputs: one TAP point per target, failed
# by any crash, sanitizer report, leak or input slower than FUZZ_TIMEOUT
# seconds.  New inputs go to FUZZ_WORK/TARGET (a temporary directory by
# default), findings to FUZZ_WORK/TARGET-crash-* and the like.
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

# As in make check: the interpreter's lifetime allocations are no leak,
# and malloc may fail (libFuzzer's -rss_limit_mb and -malloc_limit_mb):
# CPython then raises MemoryError, while pyward's own allocations end the
# process ("pyward: out of memory", src/core/util.h), which is a finding.
: "${LSAN_OPTIONS:=suppressions=$top_srcdir/tests/supp/lsan.supp:print_suppressions=0}"
: "${ASAN_OPTIONS:=allocator_may_return_null=1}"
export LSAN_OPTIONS ASAN_OPTIONS

seconds=${FUZZ_SECONDS:-20}
timeout=${FUZZ_TIMEOUT:-10}
work=${FUZZ_WORK:-}
if [ -z "$work" ]; then
    work=$(tmpdir_new)
    trap 'rm -rf "$work"' EXIT
fi

for t in http jobeput jsonrpc rules validate; do
    mkdir -p "$work/$t"
    dirs="$work/$t $(fuzz_seeds "$t")"
    log="$work/$t.log"
    dict=""
    if [ -f "$top_srcdir/tests/fuzz/$t.dict" ]; then
        dict="-dict=$top_srcdir/tests/fuzz/$t.dict"
    fi
    # shellcheck disable=SC2086 # dict and dirs are split on purpose
    if "$top_builddir/tests/fuzz/fuzz-$t" -max_total_time="$seconds" \
        -timeout="$timeout" -print_final_stats=1 $dict \
        -artifact_prefix="$work/$t-" $dirs >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        ok "fuzz $t for $seconds s: ${runs:-?} inputs, no finding"
        grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | sed 's/^/# /'
    else
        not_ok "fuzz $t for $seconds s" "$(tail -n 80 "$log")"
    fi
done
done_testing
