# parity: the static policy accepts open(); default rejects calls to builtins the sandbox does not provide (RESTRICTEDPYTHON.md §10)
# restricted: accept
# default: reject
f = open("data.txt")
