# parity: yield at module level: SyntaxError raised by the final compile() (RestrictedPython's compile pipeline)
# restricted: reject
# default: reject
yield 1
