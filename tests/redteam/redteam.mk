# SPDX-License-Identifier: Apache-2.0
# The red-team suite: attacks as data (tests/redteam/CATEGORY/NAME.py) and
# the programs that must run (tests/programs/NAME.py), each run through
# `pyward serve` and `pyward run --skip-validation` by one driver,
# redteam.py.  Short form in make check (the table of stopping layers in
# the log); `make redteam` prints the table on stdout.  The sandbox's other
# host checks (doctor, output dir, workspace caps): tests/host/sandbox.sh.
# tests/redteam/run.sh: listed first in Makefile.am (the longest suite).
TESTS += tests/redteam/run-http.sh tests/host/sandbox.sh

redteam: pyward
	@work=$$(mktemp -d "$${TMPDIR:-/tmp}/pyward-redteam.XXXXXX") && \
	chmod 755 "$$work" && \
	PYWARD='$(abs_top_builddir)/pyward' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	$(PYTHON3) $(top_srcdir)/tests/redteam/redteam.py --table \
	    --work "$$work/w" --srcdir '$(abs_top_srcdir)' \
	    $(top_srcdir)/tests/redteam $(top_srcdir)/tests/programs; \
	rc=$$?; rm -rf "$$work"; exit $$rc
.PHONY: redteam

# The attacks and programs are data: each folder ships whole.
EXTRA_DIST += \
	tests/redteam/run.sh \
	tests/redteam/run-http.sh \
	tests/redteam/redteam.py \
	tests/host/sandbox.sh \
	tests/redteam/builtins \
	tests/redteam/disclosure \
	tests/redteam/filesystem \
	tests/redteam/format \
	tests/redteam/frames \
	tests/redteam/imports \
	tests/redteam/network \
	tests/redteam/processes \
	tests/redteam/resources \
	tests/redteam/syscalls \
	tests/programs \
	$(NULL)
