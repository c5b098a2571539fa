# MCP server, `pyward serve`.
libpyward_a_SOURCES += src/stub_server.c
