#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The red-team suite's server pass over HTTP: every attack and program of
# the short form (redteam.py) through one `pyward serve --http` on
# loopback (each call a POST to /mcp), checked the same way; the
# unvalidated pass does not depend on the transport and runs in run.sh.
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
work=$(tmpdir_new)
chmod 755 "$work"
"$PYTHON3" "$top_srcdir/tests/redteam/redteam.py" --verbose \
    --transport http --serve-only \
    --work "$work/w" --srcdir "$top_srcdir" "$top_srcdir/tests/redteam" \
    "$top_srcdir/tests/programs"
rc=$?
rm -rf "$work"
exit $rc
