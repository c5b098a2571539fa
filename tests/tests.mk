# Shared test infrastructure.
EXTRA_DIST += tests/lib.sh tests/supp/lsan.supp tests/examples/hello.py
TESTS += tests/smoke.sh
EXTRA_DIST += tests/smoke.sh

# Sandbox attacks and programs (tests/exec/*.py, one TAP point each).
TESTS += tests/run-exec.sh
EXTRA_DIST += tests/run-exec.sh tests/exec-check.py $(wildcard $(srcdir)/tests/exec/*.py)
