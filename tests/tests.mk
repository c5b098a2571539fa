# SPDX-License-Identifier: Apache-2.0
# Shared test infrastructure.
EXTRA_DIST += \
	tests/lib.sh \
	tests/tap.py \
	tests/bigprog.py \
	tests/supp/lsan.supp \
	tests/supp/cppcheck.supp \
	$(NULL)
TESTS += \
	tests/smoke.sh \
	tests/man.sh \
	tests/lint/format.sh \
	tests/lint/refs.sh \
	tests/lint/spdx.sh \
	tests/lint/layers.sh \
	tests/lint/calls.sh \
	tests/lint/pyflakes.sh \
	$(NULL)
# tests/lint/cppcheck.sh and tidy.sh: listed first in Makefile.am.
XFAIL_TESTS =

# The test times (tests/timed.sh) and, at the end of `make check`, the ten
# slowest tests of the run.
EXTRA_DIST += tests/timed.sh tests/slowest.sh
CLEANFILES += $(TEST_LOGS:.log=.time)
check-local: check-TESTS
	@$(SHELL) $(top_srcdir)/tests/slowest.sh 10 $(TEST_LOGS:.log=.time)

# `make check-fast`: the tier a change is proven with in minutes.  No test
# here starts a server or waits for a run's time limit: every C unit test
# (tests/unit/check_*: runs forked from one zygote), the guard under plain python3, the
# rule cases (and the parity cases), the beginner corpus and the
# validator's attacks through the validator, the command line's checks
# and every lint (clang-tidy checks only files whose preprocessed text
# changed since its last clean pass: tests/lint/tidy.sh).
FAST_TESTS = \
	tests/guard/run.sh \
	tests/cases/run.sh \
	tests/cases/parity/run.sh \
	tests/programs/beginner/check.sh \
	tests/redteam/validator/run.sh \
	tests/cases/compile-gate.sh \
	tests/cli/run.sh \
	tests/cli/config.sh \
	tests/smoke.sh \
	tests/man.sh \
	$(NULL)
# The tests `make check` runs, for a caller that picks among them.
print-tests:
	@echo $(TESTS)
.PHONY: print-tests
check-fast: all
	@fast='$(FAST_TESTS)'; for t in $(TESTS); do \
	    case $$t in tests/unit/check_* | tests/lint/*) fast="$$fast $$t" ;; \
	    esac; \
	done; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$$fast"
.PHONY: check-fast

# clang-tidy's cache of clean passes (tests/lint/tidy.sh).
clean-local: clean-tidy-cache
clean-tidy-cache:
	-rm -rf tests/lint/tidy-cache
.PHONY: clean-tidy-cache
EXTRA_DIST += \
	tests/smoke.sh \
	tests/man.sh \
	tests/lint/format.sh \
	tests/lint/cppcheck.sh \
	tests/lint/tidy.sh \
	tests/lint/tidy-one.sh \
	tests/lint/refs.sh \
	tests/lint/spdx.sh \
	tests/lint/layers.sh \
	tests/lint/calls.sh \
	tests/lint/calls.py \
	tests/lint/calls.baseline \
	tests/lint/pyflakes.sh \
	.clang-tidy \
	$(NULL)

# clang-tidy needs the compiler's view of the dependencies.
AM_TESTS_ENVIRONMENT += \
	TIDY_CFLAGS='$(PYTHON_CFLAGS) $(JANSSON_CFLAGS) $(SECCOMP_CFLAGS) -DPW_RULES_DIR="\"$(pkgdatadir)/rules\""'; export TIDY_CFLAGS;
# pyward run under a pseudo-terminal, next to python3 (tests/tty/).
TESTS += tests/tty/run.sh
EXTRA_DIST += tests/tty/run.sh tests/tty/test_tty.py
# `pyward serve --http` against bad input (tests/http/).
TESTS += tests/http/run.sh
EXTRA_DIST += tests/http/run.sh tests/http/test_http.py
# ... against connections that would keep others out (idle, slow, past
# the caps) and attacks on the HTTP surface (DNS rebinding, the Jobe API
# without a token).
TESTS += tests/http/conns.sh tests/http/attacks.sh
EXTRA_DIST += tests/http/conns.sh tests/http/test_conns.py \
	tests/http/attacks.sh tests/http/test_attacks.py
# ... and on a socket systemd passed (systemd-socket-activate).
TESTS += tests/http/socket.sh
EXTRA_DIST += tests/http/socket.sh tests/http/test_socket.py
# Large replies: files and streams byte for byte over stdio, HTTP and
# SSE, the memory and fds of unread replies, files changed meanwhile.
TESTS += tests/http/replies.sh
EXTRA_DIST += tests/http/replies.sh tests/http/test_replies.py
# A session's read_file and write_file of large files, done in steps.
TESTS += tests/http/session_files.sh
EXTRA_DIST += tests/http/session_files.sh tests/http/test_session_files.py
# Large requests: their JSON parsed off the loop, the others answered
# meanwhile, stdio's order kept, clients gone mid-parse.
TESTS += tests/http/requests.sh
EXTRA_DIST += tests/http/requests.sh tests/http/test_requests.py \
	tests/http/raw.py
# The security event log of `pyward serve` (tests/events/).
TESTS += tests/events/run.sh
EXTRA_DIST += tests/events/run.sh tests/events/test_events.py
# The Jobe API of `pyward serve --http --jobe` (tests/jobe/).
TESTS += tests/jobe/run.sh
EXTRA_DIST += tests/jobe/run.sh tests/jobe/test_jobe.py
# Several servers on one host (tests/host/).
TESTS += tests/host/run.sh
EXTRA_DIST += tests/host/run.sh tests/host/many_servers.py
# The guard's direct tests under plain python3 (tests/guard/run.sh).
TESTS += tests/guard/run.sh
EXTRA_DIST += \
	tests/guard/run.sh \
	tests/guard/guardload.py \
	tests/guard/test_guard.py \
	tests/guard/test_policy.py \
	tests/guard/test_runtime_loader.py \
	$(NULL)

include tests/programs/programs.mk
include tests/redteam/redteam.mk
# Attacks checked otherwise than through tests/redteam/run.sh, each folder
# with its driver: by the validator alone (tests/redteam/validator/) and
# by `pyward judge` (tests/redteam/judge/, tests/redteam/judge.py), and
# batch grading against a process per test with the batch's own attacks
# (tests/redteam/batch/, tests/redteam/batch.py).
TESTS += tests/redteam/validator/run.sh tests/redteam/judge/run.sh \
	tests/redteam/batch/run.sh
# Package sets: `pyward packages`, `serve --packages`, PEP 723 against
# them (tests/packages/); the attacks of a set's packages, with their
# own driver (tests/redteam/packages/).
TESTS += tests/packages/run.sh tests/redteam/packages/run.sh
EXTRA_DIST += tests/packages tests/redteam/packages \
	tests/bench/bench-packages.py
# What a package set's module costs a run next to Debian's, as ratios
# measured in the same run: `make bench-packages`.
bench-packages: pyward$(EXEEXT)
	PYWARD='$(abs_top_builddir)/pyward$(EXEEXT)' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	PYTHON3='$(PYTHON3)' \
	$(PYTHON3) $(top_srcdir)/tests/bench/bench-packages.py
.PHONY: bench-packages
EXTRA_DIST += tests/redteam/validator tests/redteam/judge \
	tests/redteam/judge.py tests/redteam/batch tests/redteam/batch.py
include tests/soak/soak.mk
include tests/sessions/sessions.mk
include tests/isolation/isolation.mk
include tests/fuzz/fuzz.mk

# `make valgrind`: the server's tests under valgrind memcheck.
EXTRA_DIST += tests/valgrind.sh tests/supp/valgrind.supp
valgrind: pyward$(EXEEXT) $(check_PROGRAMS)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	PYWARD='$(abs_top_builddir)/pyward$(EXEEXT)' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' NODE='$(NODE)' \
	$(SHELL) $(top_srcdir)/tests/valgrind.sh
.PHONY: valgrind

# Folders listed whole (tests/cases/ among them) hold their drivers' logs
# after an in-tree `make check`: the tarball takes none of them.
dist-hook:
	find $(distdir)/tests \( -name '*.log' -o -name '*.trs' \
	    -o -name '*.time' \) -exec rm -f {} +
