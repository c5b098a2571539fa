# parity: breakpoint is reserved: even a Load in a call is rejected (RESTRICTEDPYTHON.md §3.4)
# restricted: reject
# default: reject
breakpoint()
