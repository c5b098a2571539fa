# parity: JoinedStr and FormattedValue (f-strings) are allowed (5.0) (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
n = 3.14159
s = f"{n:.2f} {n!r:>10} {'x'}"
