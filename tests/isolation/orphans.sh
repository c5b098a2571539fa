#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every process a server starts dies with it, whatever kills it: a
# `pyward serve` is SIGKILLed during a fresh run (busy, asleep), a
# session's call, an idle session and a copy's call, and none of its
# processes may be left (see orphans.py).
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
exec "$PYTHON3" "$top_srcdir/tests/isolation/orphans.py"
