#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Attacks on the HTTP surface of `pyward serve --http`: DNS rebinding
# Hosts, the Jobe API without a token, ids and numbers out of range
# (tests/http/test_attacks.py).
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/http/test_attacks.py"
