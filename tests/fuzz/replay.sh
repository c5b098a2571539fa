#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Replay the seed corpus and the regression inputs of every fuzz target
# through its entry point (tests/fuzz/replay-TARGET): one TAP point per
# target.  A sanitizer report or a crash fails the point.
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

for t in http jobeput jsonrpc rules validate; do
    dirs=$(fuzz_seeds "$t")
    # shellcheck disable=SC2086 # the directories are split on purpose
    check "replay $t: seed corpus and regression inputs" \
        "$top_builddir/tests/fuzz/replay-$t" $dirs
done
done_testing
