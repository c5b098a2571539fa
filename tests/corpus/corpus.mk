# Validator corpora: beginner programs, attacks, RestrictedPython parity.
# tests/run-corpus.sh runs them through `pyward check`;
# tests/corpus/run-beginner.sh checks the beginner programs against CPython.
TESTS += tests/run-corpus.sh tests/corpus/run-beginner.sh
EXTRA_DIST += tests/run-corpus.sh tests/corpus
