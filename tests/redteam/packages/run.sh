#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The attacks of a package set's packages: mkset.py builds and installs
# the set "redteam" (packages that write files, open sockets, spawn
# processes, read /proc when imported, and one that ships a .pth file),
# then redteam.py runs each attack of this folder through `pyward serve
# --packages redteam`, as a session's call, and unvalidated, with its
# usual checks (no file outside the workspace: the set's directory lies
# in the watched tree; no connection; no process left; no secret).
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
if ! "$PYTHON3" -c 'import importlib.util as u, sys
sys.exit(any(u.find_spec(m) is None for m in ("pip", "setuptools", "wheel")))' \
    2>/dev/null; then
    echo "1..0 # SKIP pip, setuptools or wheel missing for $PYTHON3"
    exit 0
fi
work=$(tmpdir_new)
chmod 755 "$work"
mkdir -p "$work/w"
chmod 755 "$work/w"
if ! PYTHON3=$PYTHON3 "$PYTHON3" "$top_srcdir/tests/redteam/packages/mkset.py" \
    "$work/w/state" >"$work/mkset.log" 2>&1; then
    sed 's/^/# /' "$work/mkset.log"
    echo "not ok 1 - the package set of the attacks is built and installed"
    echo "1..1"
    rm -rf "$work"
    exit 0
fi
PYWARD_STATE_DIR=$work/w/state "$PYTHON3" \
    "$top_srcdir/tests/redteam/redteam.py" --verbose --packages redteam \
    --work "$work/w" --srcdir "$top_srcdir" \
    "$top_srcdir/tests/redteam/packages"
rc=$?
if [ -e /tmp/pw-rt-pth-ran ]; then
    echo "# /tmp/pw-rt-pth-ran exists: a .pth file was processed"
    rc=1
fi
rm -rf "$work"
exit $rc
