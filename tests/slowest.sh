#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# slowest.sh [N] [DIR|FILE...]: the N (10) slowest tests of the last run
# under each DIR (.), or of the NAME.time FILEs named (`make check` names
# its own tests'), by wall clock, with their CPU time, from the NAME.time
# files tests/timed.sh leaves.
n=${1:-10}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- .
find "$@" -name node_modules -prune -o -name '*.time' -print 2>/dev/null |
    while read -r f; do
        [ -f "${f%.time}.trs" ] || continue
        printf '%s %s\n' "$(cat "$f")" "${f%.time}"
    done | sort -rn | head -n "$n" |
    awk 'BEGIN { print "the slowest tests:" }
         NF == 3 { printf "  %7.1f s  (CPU %7.1f s)  %s\n", $1, $2, $3 }'
