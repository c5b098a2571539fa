# parity: only calls of the bare name are checked: e = exec; e(...) is accepted statically (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: ?
e = exec
e("x = 1")
