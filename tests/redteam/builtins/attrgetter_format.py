# category: builtins
# attack: operator.attrgetter('format') hands out the raw str.format
# profile: basic
# run-layer: guard
import operator
f = operator.attrgetter("format")("{0.__class__.__base__.__subclasses__}")
print(f(0))
