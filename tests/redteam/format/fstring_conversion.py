# category: format
# attack: f-string !r/!s conversions on dunders
# profile: basic
x = ()
print(f"{x.__class__!r} {x.__class__.__base__!s}")
