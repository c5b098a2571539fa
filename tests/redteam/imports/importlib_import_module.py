# category: imports
# attack: importlib.import_module('subprocess')
# profile: basic
import importlib
importlib.import_module("subprocess").run(["touch", "@OUTSIDE@"])
