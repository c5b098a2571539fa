# SPDX-License-Identifier: Apache-2.0
# MCP server, `pyward serve`.
libpyward_a_SOURCES += \
	src/server/conf.c src/server/conf.h \
	src/server/rpc.c src/server/rpc.h \
	src/server/parse.c src/server/parse.h \
	src/server/mcp.c src/server/mcp.h \
	src/server/tools.c src/server/tools.h src/server/tools_schema.c \
	src/server/tools_info.c \
	src/server/grade_tool.c src/server/grade_tool.h \
	src/server/sessions.c src/server/sessions.h \
	src/server/tool_def.c src/server/tool_def.h \
	src/server/session_tool.c src/server/session_tool.h \
	src/server/stream.c src/server/stream.h \
	src/server/compat.c src/server/compat.h \
	src/server/server.c src/server/server.h \
	src/server/http.c src/server/http.h src/server/http_ops.c \
	src/server/mhd.c src/server/mhd.h \
	src/server/http_req.c src/server/http_req.h \
	src/server/tokens.c src/server/tokens.h \
	src/server/events.c src/server/events.h \
	src/server/listenfd.c src/server/listenfd.h \
	src/server/jobe.c src/server/jobe.h src/server/jobe_spec.c \
	src/server/jobe_files.c src/server/jobe_put.c \
	src/server/packages.c src/server/packages.h \
	$(NULL)

TESTS += tests/mcp/run.sh
EXTRA_DIST += \
	tests/mcp/run.sh \
	tests/mcp/run.mjs \
	tests/mcp/session.mjs \
	tests/mcp/cases.mjs \
	tests/mcp/queue.mjs \
	$(NULL)

# tests/mcp-client/run.sh: listed first in Makefile.am (a long one).
EXTRA_DIST += \
	tests/mcp-client/run.sh \
	tests/mcp-client/client.test.mjs \
	tests/mcp-client/agent.test.mjs \
	tests/mcp-client/everyday.test.mjs \
	tests/mcp-client/grade.test.mjs \
	tests/mcp-client/stateless.test.mjs \
	tests/mcp-client/http.test.mjs \
	tests/mcp-client/httpserver.mjs \
	tests/mcp-client/proc.mjs \
	tests/mcp-client/sessions.test.mjs \
	tests/mcp-client/ibm.test.mjs \
	tests/mcp-client/pep723.test.mjs \
	tests/mcp-client/compat.test.mjs \
	tests/mcp-client/package.json \
	tests/mcp-client/package-lock.json \
	$(NULL)

clean-local: clean-mcp-client
clean-mcp-client:
	-rm -rf tests/mcp-client-work
.PHONY: clean-mcp-client

# What the security event log costs execute_code, off, to a file and to
# a pipe nobody reads, measured in one run: `make bench-events`.
EXTRA_DIST += tests/bench/bench-events.py
bench-events: pyward$(EXEEXT)
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' $(PYTHON3) \
	    $(top_srcdir)/tests/bench/bench-events.py ./pyward$(EXEEXT)
.PHONY: bench-events

# Round-trip latency through the MCP protocol: `make bench-mcp`.
EXTRA_DIST += tests/bench/bench-mcp.mjs tests/bench/mcp-raw.mjs
bench-mcp: pyward$(EXEEXT)
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' $(NODE) \
	    $(top_srcdir)/tests/bench/bench-mcp.mjs ./pyward$(EXEEXT)
.PHONY: bench-mcp

# How soon a new server answers, basic and data_science, next to
# spawning python3: `make bench-startup`.
EXTRA_DIST += tests/bench/bench-startup.py
bench-startup: pyward$(EXEEXT)
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' $(PYTHON3) \
	    $(top_srcdir)/tests/bench/bench-startup.py ./pyward$(EXEEXT)
.PHONY: bench-startup

# print('hi') through pyward, spawned python3 and bubblewrap + python3,
# the local rows of PERFORMANCE.md's comparison: `make bench-compare`.
# Pyodide comes from npm (its version pinned here) into tests/bench-work.
PYODIDE_VERSION = 0.26.4
EXTRA_DIST += tests/bench/bench-compare.py tests/bench/bench-pyodide.mjs
bench-compare: pyward$(EXEEXT)
	@mkdir -p tests/bench-work && \
	if [ ! -d tests/bench-work/node_modules/pyodide ]; then \
	    (cd tests/bench-work && echo '{"private":true}' > package.json && \
	     $${NPM:-npm} install --no-audit --no-fund --no-save \
	         pyodide@$(PYODIDE_VERSION) >/dev/null 2>&1) || \
	    echo "Pyodide not installed (npm): left out"; \
	fi
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	PYODIDE_DIR='$(abs_top_builddir)/tests/bench-work' $(PYTHON3) \
	    $(top_srcdir)/tests/bench/bench-compare.py ./pyward$(EXEEXT)
.PHONY: bench-compare
clean-local: clean-bench-work
clean-bench-work:
	rm -rf tests/bench-work
.PHONY: clean-bench-work

# execute_code over HTTP next to stdio: `make bench-http`.
EXTRA_DIST += tests/bench/bench-http.mjs
bench-http: pyward$(EXEEXT)
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' $(NODE) \
	    $(top_srcdir)/tests/bench/bench-http.mjs ./pyward$(EXEEXT) \
	    $(top_srcdir)/contrib/haproxy/haproxy.cfg
.PHONY: bench-http

# The program's stdout line-buffered (as pyward runs it) next to block-
# buffered and unbuffered, through execute_code: `make bench-output`.
EXTRA_DIST += tests/bench/bench-output.py
bench-output: pyward$(EXEEXT)
	PYWARD='$(abs_top_builddir)/pyward$(EXEEXT)' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	$(PYTHON3) $(top_srcdir)/tests/bench/bench-output.py
.PHONY: bench-output

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_jsonrpc
TESTS += tests/unit/check_jsonrpc
tests_unit_check_jsonrpc_SOURCES = tests/unit/check_jsonrpc.c
tests_unit_check_jsonrpc_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_jsonrpc_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_jobe
TESTS += tests/unit/check_jobe
tests_unit_check_jobe_SOURCES = tests/unit/check_jobe.c
tests_unit_check_jobe_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_jobe_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_sessions
TESTS += tests/unit/check_sessions
tests_unit_check_sessions_SOURCES = tests/unit/check_sessions.c
tests_unit_check_sessions_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_sessions_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif

# The tools' arguments against the schemas tools/list publishes.
if HAVE_CHECK
check_PROGRAMS += tests/unit/check_args
TESTS += tests/unit/check_args
tests_unit_check_args_SOURCES = tests/unit/check_args.c
tests_unit_check_args_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_args_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif

# `serve`'s flags and environment.
if HAVE_CHECK
check_PROGRAMS += tests/unit/check_conf
TESTS += tests/unit/check_conf
tests_unit_check_conf_SOURCES = tests/unit/check_conf.c
tests_unit_check_conf_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_conf_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif

# The --compat tool sets: arguments and result layouts.
if HAVE_CHECK
check_PROGRAMS += tests/unit/check_compat
TESTS += tests/unit/check_compat
tests_unit_check_compat_SOURCES = tests/unit/check_compat.c
tests_unit_check_compat_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_compat_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif
