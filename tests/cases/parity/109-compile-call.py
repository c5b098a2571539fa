# parity: compile() passes the static policy; default rejects it (RestrictedPython's gaps pyward must cover)
# restricted: accept
# default: reject
c = compile("1", "<s>", "eval")
