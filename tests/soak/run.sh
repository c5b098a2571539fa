#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Soak, short form: 500 execute_code calls (normal programs, errors,
# rejections, timeouts, floods) through one `pyward serve`; the server's
# RSS must grow less than 5 MB and its open fds and children come back to
# their start values.  `make soak` runs the long form (10,000 calls).
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
"$PYTHON3" "$top_srcdir/tests/soak/soak.py" --tap --calls 500 --every 100 --timeout 0.1
