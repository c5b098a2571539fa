#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The red-team suite, short form: every attack under tests/redteam/*/ and
# every program of tests/programs/ runs through one `pyward serve`
# (validated) and through `pyward run --skip-validation`, checked by what
# happened (see redteam.py); the table of stopping layers goes to the log.
# `make redteam` is the long form: the same runs, the table on stdout.
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
work=$(tmpdir_new)
# The sandbox runs as nobody: the planted secret must be readable to it, so
# that only the sandbox keeps it out.
chmod 755 "$work"
"$PYTHON3" "$top_srcdir/tests/redteam/redteam.py" --verbose \
    --work "$work/w" --srcdir "$top_srcdir" "$top_srcdir/tests/redteam" \
    "$top_srcdir/tests/programs"
rc=$?
rm -rf "$work"
exit $rc
