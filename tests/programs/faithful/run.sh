#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The differential error suite (tests/programs/faithful/faithful.py): each
# program of tests/programs/faithful/cases/ under python3.11 and under
# `pyward run`, the error as python3 shows it.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/programs/faithful/faithful.py"
