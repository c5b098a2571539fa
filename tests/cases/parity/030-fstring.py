# parity: JoinedStr and FormattedValue (f-strings) are allowed (5.0) (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
n = 3.14159
s = f"{n:.2f} {n!r:>10} {'x'}"
