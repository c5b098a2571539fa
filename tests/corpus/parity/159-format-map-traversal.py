# parity: format_map with an attribute traversal inside the string passes the static policy (RESTRICTEDPYTHON.md §9,§10)
# restricted: accept
# default: accept
s = "{x.__class__.__mro__}".format_map({"x": 1})
