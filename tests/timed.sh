#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# timed.sh DRIVER ARGS...: run automake's test driver and keep how long the
# test took, in seconds, next to its .trs file (NAME.time); tests/slowest.sh
# lists the slowest.  The driver's exit status is this script's.
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
    echo "$start $(date +%s.%N)" |
        awk '{ printf "%.1f\n", $2 - $1 }' >"${trs%.trs}.time"
fi
exit $rc
