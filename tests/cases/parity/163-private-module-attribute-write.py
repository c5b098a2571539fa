# parity: set a single-underscore attribute of a library module: RestrictedPython's attribute rule rejects it; the default rules leave it to the guard, which refuses names starting with '_' on anything but the program's own classes and objects (tests/redteam/builtins/private_module_attributes.py)
# restricted: reject
# default: accept
import random

random._inst = None
