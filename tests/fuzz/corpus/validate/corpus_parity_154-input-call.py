# parity: input() is an ordinary call for the static policy (RESTRICTEDPYTHON.md §6)
# restricted: accept
# default: accept
name = input()
