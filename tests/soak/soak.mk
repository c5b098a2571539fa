# SPDX-License-Identifier: Apache-2.0
# Soak: many execute_code calls through one server, watching its RSS, fds
# and children.  Short form in make check; `make soak` is the long form.
TESTS += tests/soak/run.sh
EXTRA_DIST += tests/soak/run.sh tests/soak/soak.py tests/serve_client.py

soak: pyward
	PYWARD='$(abs_top_builddir)/pyward' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	$(PYTHON3) $(top_srcdir)/tests/soak/soak.py --calls 10000 --every 1000
.PHONY: soak
