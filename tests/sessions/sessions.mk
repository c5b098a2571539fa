# SPDX-License-Identifier: Apache-2.0
# Sessions: state across calls with explicit handles (raw JSON-RPC).
# tests/sessions/run.sh: listed first in Makefile.am (a long one).
EXTRA_DIST += tests/sessions/run.sh tests/sessions/sessions.py

# read_file and write_file done in steps: round trips at the edges, a
# cancel (raw JSON-RPC over stdio).
TESTS += tests/sessions/files.sh
EXTRA_DIST += tests/sessions/files.sh tests/sessions/files.py

# Sessions against fresh runs, and an idle session's memory:
# `make bench-sessions`.
EXTRA_DIST += tests/bench/bench-sessions.py
bench-sessions: pyward$(EXEEXT)
	PYWARD='$(abs_top_builddir)/pyward$(EXEEXT)' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	$(PYTHON3) $(top_srcdir)/tests/bench/bench-sessions.py
.PHONY: bench-sessions

# How soon a cancelled run stops using CPU, next to a SIGKILL's own
# latency: `make bench-cancel`.
EXTRA_DIST += tests/bench/bench-cancel.py
bench-cancel: pyward$(EXEEXT)
	PYWARD='$(abs_top_builddir)/pyward$(EXEEXT)' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	$(PYTHON3) $(top_srcdir)/tests/bench/bench-cancel.py
.PHONY: bench-cancel
