# parity: type(x) with one argument is an ordinary call (RestrictedPython's safe_builtins)
# restricted: accept
# default: accept
t = type(1)
