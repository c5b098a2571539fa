# parity: an IndentationError from the parser is an error (RestrictedPython's compile pipeline)
# restricted: reject
# default: reject
if True:
print(1)
