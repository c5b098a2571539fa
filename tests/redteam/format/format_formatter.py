# category: format
# attack: print(string.Formatter().format("{0.__class__}", 1))
# profile: basic
# verdict: error rejected
import string
print(string.Formatter().format("{0.__class__}", 1))
