# The red-team suite: attacks as data (tests/redteam/CATEGORY/NAME.py), each
# run through `pyward serve` and `pyward run --skip-validation`.  Short form
# in make check; `make redteam` adds the tests/exec attacks and prints the
# table of stopping layers on stdout.
TESTS += tests/redteam/run.sh

redteam: pyward
	@work=$$(mktemp -d "$${TMPDIR:-/tmp}/pyward-redteam.XXXXXX") && \
	chmod 755 "$$work" && \
	PYWARD='$(abs_top_builddir)/pyward' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	$(PYTHON3) $(top_srcdir)/tests/redteam/redteam.py --table \
	    --work "$$work/w" --srcdir '$(abs_top_srcdir)' \
	    $(top_srcdir)/tests/redteam $(top_srcdir)/tests/exec; \
	rc=$$?; rm -rf "$$work"; exit $$rc
.PHONY: redteam

# The attacks are data: each category's folder ships whole.
EXTRA_DIST += \
	tests/redteam/run.sh \
	tests/redteam/redteam.py \
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
	$(NULL)
