# parity: a Load of print is rewritten before the check, so calling print is fine (RESTRICTEDPYTHON.md §3.4,§5)
# restricted: accept
# default: accept
print("a", "b", sep="-")
p = print
