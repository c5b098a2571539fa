# Shared test infrastructure.
EXTRA_DIST += \
	tests/lib.sh \
	tests/supp/lsan.supp \
	tests/supp/cppcheck.supp \
	tests/examples/hello.py \
	$(NULL)
TESTS += \
	tests/smoke.sh \
	tests/lint/format.sh \
	tests/lint/cppcheck.sh \
	$(NULL)
EXTRA_DIST += \
	tests/smoke.sh \
	tests/lint/format.sh \
	tests/lint/cppcheck.sh \
	$(NULL)
