# category: format
# attack: string.Formatter().get_field on a dunder path
# profile: basic
import string
print(string.Formatter().get_field("0.__class__.__base__", [()], {}))
