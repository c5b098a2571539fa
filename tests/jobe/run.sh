#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Jobe API of `pyward serve --http --jobe` (tests/jobe/test_jobe.py):
# what CodeRunner relies on, through python3's http.client.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/jobe/test_jobe.py"
