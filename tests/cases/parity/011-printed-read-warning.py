# parity: reading printed without printing is only a warning (Load of printed is rewritten) (RestrictedPython's compile pipeline and name rule, check_name)
# restricted: accept
# default: ?
x = printed
