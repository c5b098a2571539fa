eval("1")  # noqa: PW201
exec("2")  # noqa
x = 1  # noqa: PW999, PW201,
