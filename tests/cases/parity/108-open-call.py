# parity: the static policy accepts open(); default rejects calls to builtins the sandbox does not provide (RestrictedPython's gaps pyward must cover)
# restricted: accept
# default: reject
f = open("data.txt")
