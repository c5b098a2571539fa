# Validator, rules and `pyward check` / `pyward rules`.
libpyward_a_SOURCES += validator/stub_check.c
