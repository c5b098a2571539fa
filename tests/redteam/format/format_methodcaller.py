# category: format
# attack: operator.methodcaller('format', obj) on a hostile format string
# profile: basic
import operator
print(operator.methodcaller("format", ())("{0.__class__.__base__}"))
