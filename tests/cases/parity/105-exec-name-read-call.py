# parity: only calls of the bare name are checked: e = exec; e(...) is accepted statically (RestrictedPython's name rule, check_name)
# restricted: accept
# default: ?
e = exec
e("x = 1")
