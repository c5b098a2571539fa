#!/bin/sh
# The red-team suite, short form: every attack under tests/redteam/*/ runs
# through one `pyward serve` (validated) and through `pyward run
# --skip-validation`, checked by what happened (see redteam.py); the table
# of stopping layers goes to the log.  `make redteam` is the long form: the
# tests/exec attacks too, and the table on stdout.
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
work=$(tmpdir_new)
# The sandbox runs as nobody: the planted secret must be readable to it, so
# that only the sandbox keeps it out.
chmod 755 "$work"
"$PYTHON3" "$top_srcdir/tests/redteam/redteam.py" --verbose \
    --work "$work/w" --srcdir "$top_srcdir" "$top_srcdir/tests/redteam"
rc=$?
rm -rf "$work"
exit $rc
