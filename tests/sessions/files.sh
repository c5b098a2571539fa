#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# read_file and write_file around the sizes where they are done in steps
# (tests/sessions/files.py): round trips, UTF-8 at a step's edge, a
# cancel leaving nothing.
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
"$PYTHON3" "$top_srcdir/tests/sessions/files.py"
