#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# No run's memory holds another run's bytes: a victim run's tokens (code,
# stdin, stdout, workspace file) are looked for in every other process of
# the server's tree, during the run, beside a concurrent run, and after
# it (see crossrun.py).  Needs root; skipped otherwise.
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
exec "$PYTHON3" "$top_srcdir/tests/isolation/crossrun.py"
