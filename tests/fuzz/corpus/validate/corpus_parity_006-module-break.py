# parity: break outside a loop: SyntaxError raised by the final compile() (RESTRICTEDPYTHON.md §1)
# restricted: reject
# default: reject
break
