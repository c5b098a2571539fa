# parity: yield at module level: SyntaxError raised by the final compile() (RESTRICTEDPYTHON.md §1)
# restricted: reject
# default: reject
yield 1
