# parity: a Load of print is rewritten before the check, so calling print is fine (RestrictedPython's name rule, check_name and rewrites)
# restricted: accept
# default: accept
print("a", "b", sep="-")
p = print
