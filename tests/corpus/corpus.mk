# Validator corpora: beginner programs, attacks, RestrictedPython parity.
TESTS += tests/run-corpus.sh
EXTRA_DIST += tests/run-corpus.sh tests/corpus
