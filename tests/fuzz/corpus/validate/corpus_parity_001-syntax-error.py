# parity: a SyntaxError from ast.parse is an error (RESTRICTEDPYTHON.md §1)
# restricted: reject
# default: reject
x = (1,
