# category: builtins
# attack: type() of a module view is reachable; its private, name-mangled slots read the raw module
# profile: basic
# verdict: error rejected
# run-layer: guard
import random
V = type(random)
raw = V._ModuleView__m.__get__(random)
raw._os.system("cat @SECRET_FILE@ > @OUTSIDE@")
