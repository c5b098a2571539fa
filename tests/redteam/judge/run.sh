#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The grading attacks of tests/redteam/judge/ through `pyward judge`, with
# and without validation (tests/redteam/judge.py): a program's own words
# never make a verdict.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/redteam/judge.py"
