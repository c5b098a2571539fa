# parity: a SyntaxError from ast.parse is an error (RestrictedPython's compile pipeline)
# restricted: reject
# default: reject
x = (1,
