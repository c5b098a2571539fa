#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Sessions through `pyward serve` (tests/sessions/sessions.py): state
# across calls, isolation, bad handles, every limit, nothing left after
# close or expiry, and a soak of 1,000 sessions with the server's RSS, fds
# and children flat.
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
"$PYTHON3" "$top_srcdir/tests/sessions/sessions.py" --soak 1000
