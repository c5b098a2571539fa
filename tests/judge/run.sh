#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `pyward judge` end to end (tests/judge/test_judge.py): verdicts, checkers,
# formats, malformed suites (the grading attacks: tests/redteam/judge/).
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/judge/test_judge.py"
