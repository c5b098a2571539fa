# Sandboxed executor, `pyward run` and `pyward doctor`.
libpyward_a_SOURCES += src/stub_sandbox.c
