# parity: reading printed without printing is only a warning (Load of printed is rewritten) (RESTRICTEDPYTHON.md §1,§3)
# restricted: accept
# default: ?
x = printed
