# noqa: PW201
