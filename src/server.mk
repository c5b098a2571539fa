# MCP server, `pyward serve`.
libpyward_a_SOURCES += \
	src/serveconf.c src/serveconf.h \
	src/jsonrpc.c src/jsonrpc.h \
	src/mcp.c src/mcp.h \
	src/tools.c src/tools.h src/toolschema.c \
	src/server.c src/server.h \
	src/cmd_serve.c \
	$(NULL)
# The interfaces the server is built against (owned by their areas).
EXTRA_DIST += src/sandbox.h

TESTS += tests/mcp/run.sh
EXTRA_DIST += \
	tests/mcp/run.sh \
	tests/mcp/run.mjs \
	tests/mcp/session.mjs \
	tests/mcp/cases.mjs \
	$(NULL)

TESTS += tests/mcp-client/run.sh
EXTRA_DIST += \
	tests/mcp-client/run.sh \
	tests/mcp-client/client.test.mjs \
	tests/mcp-client/package.json \
	tests/mcp-client/package-lock.json \
	$(NULL)

clean-local: clean-mcp-client
clean-mcp-client:
	-rm -rf tests/mcp-client-work
.PHONY: clean-mcp-client

# Round-trip latency through the MCP protocol: `make bench-mcp`.
EXTRA_DIST += tests/bench/bench-mcp.mjs tests/bench/mcp-raw.mjs
bench-mcp: pyward$(EXEEXT)
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' $(NODE) \
	    $(top_srcdir)/tests/bench/bench-mcp.mjs ./pyward$(EXEEXT)
.PHONY: bench-mcp

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_jsonrpc
TESTS += tests/unit/check_jsonrpc
tests_unit_check_jsonrpc_SOURCES = tests/unit/check_jsonrpc.c
tests_unit_check_jsonrpc_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_jsonrpc_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif
