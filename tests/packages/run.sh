#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Package sets end to end (tests/packages/test_packages.py): wheels built
# offline, `pyward packages`, `serve --packages`, PEP 723 checks.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/packages/test_packages.py"
