# parity: an IndentationError from the parser is an error (RESTRICTEDPYTHON.md §1)
# restricted: reject
# default: reject
if True:
print(1)
