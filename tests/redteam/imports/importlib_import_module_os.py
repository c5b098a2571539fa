# category: imports
# attack: importlib.import_module("os")
# profile: basic
# verdict: error rejected
import importlib
importlib.import_module("os")
