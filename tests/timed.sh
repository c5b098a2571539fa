#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# timed.sh DRIVER ARGS...: run automake's test driver and keep how long the
# test took next to its .trs file (NAME.time): the wall clock and the CPU
# time of everything it ran (user and system, of the processes it waited
# for), in seconds; tests/slowest.sh lists the slowest.  The CPU time
# compares runs on a loaded host.  The driver's exit status is this
# script's.
trs=
prev=
for a in "$@"; do
    if [ "$prev" = --trs-file ]; then
        trs=$a
    fi
    prev=$a
done
start=$(date +%s.%N)
"$@"
rc=$?
if [ -n "$trs" ]; then
    # The second line of `times` (in this shell, not a subshell): the
    # children's user and system time.
    times >"${trs%.trs}.cpu"
    cpu=$(sed -n 2p "${trs%.trs}.cpu")
    rm -f "${trs%.trs}.cpu"
    echo "$start $(date +%s.%N) $cpu" | awk '
        function secs(t,  m) {
            m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t)
            return m * 60 + t
        }
        { printf "%.1f %.1f\n", $2 - $1, secs($3) + secs($4) }' \
        >"${trs%.trs}.time"
fi
exit $rc
