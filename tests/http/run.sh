#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `pyward serve --http` against bad input (tests/http/test_http.py):
# statuses, slow and flooding clients, tokens, drain, operations.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/http/test_http.py"
