# attack: import import_module from importlib
from importlib import import_module

import_module("subprocess")
