# Validator corpora: beginner programs, attacks, RestrictedPython parity.
# tests/corpus/run.sh runs them through `pyward check`;
# tests/corpus/run-beginner.sh checks the beginner programs against CPython.
# The three corpus directories are listed whole (automake copies a listed
# directory recursively); test logs land beside the scripts, not in them.
TESTS += tests/corpus/run.sh tests/corpus/run-beginner.sh
EXTRA_DIST += \
	tests/corpus/run.sh \
	tests/corpus/run-beginner.sh \
	tests/corpus/lint-beginner.py \
	tests/corpus/beginner \
	tests/corpus/attacks \
	tests/corpus/parity \
	$(NULL)
