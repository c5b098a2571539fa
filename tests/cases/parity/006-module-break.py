# parity: break outside a loop: SyntaxError raised by the final compile() (RestrictedPython's compile pipeline)
# restricted: reject
# default: reject
break
