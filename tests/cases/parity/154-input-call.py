# parity: input() is an ordinary call for the static policy (RestrictedPython's safe_builtins)
# restricted: accept
# default: accept
name = input()
