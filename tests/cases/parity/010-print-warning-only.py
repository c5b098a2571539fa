# parity: printing without reading printed is only a warning (RestrictedPython's compile pipeline)
# restricted: accept
# default: accept
print("hello")
