#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `pyward run` in a terminal (tests/tty/test_tty.py, under a pseudo-terminal):
# the prompt before the read, output as it is printed, Ctrl-D and Ctrl-C.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/tty/test_tty.py"
