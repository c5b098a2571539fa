#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Package sets end to end (tests/packages/test_packages.py): wheels built
# offline, `pyward packages`, `serve --packages`, PEP 723 checks.
. "${top_srcdir:-.}/tests/lib.sh"

# pip, setuptools and wheel (Debian's python3-pip, python3-setuptools,
# python3-wheel; autogen.sh --deps installs them) build and install.
if ! "${PYTHON3:-python3}" -c 'import importlib.util as u, sys
sys.exit(any(u.find_spec(m) is None for m in ("pip", "setuptools", "wheel")))' \
    2>/dev/null; then
    echo "1..0 # SKIP pip, setuptools or wheel missing for ${PYTHON3:-python3}"
    exit 0
fi
exec "${PYTHON3:-python3}" "$top_srcdir/tests/packages/test_packages.py"
