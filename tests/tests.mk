# Shared test infrastructure.
EXTRA_DIST += tests/lib.sh tests/supp/lsan.supp tests/examples/hello.py
TESTS += tests/smoke.sh
EXTRA_DIST += tests/smoke.sh
