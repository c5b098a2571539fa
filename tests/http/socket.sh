#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `pyward serve --http` on a socket systemd passed, started by
# systemd-socket-activate (tests/http/test_socket.py).
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/http/test_socket.py"
