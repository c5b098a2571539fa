# expect: error
import importlib
importlib.import_module("os")
