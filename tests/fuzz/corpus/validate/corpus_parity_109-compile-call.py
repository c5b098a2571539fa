# parity: compile() passes the static policy; default rejects it (RESTRICTEDPYTHON.md §10)
# restricted: accept
# default: reject
c = compile("1", "<s>", "eval")
