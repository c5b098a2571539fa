# category: builtins
# attack: __class__ of a module view, then its name-mangled internals, to get the raw module behind the view
# profile: basic
# verdict: error
# run-layer: guard
import random
V = random.__class__
raw = V._ModuleView__get(random, "_os")
raw.system("cat @SECRET_FILE@ > @OUTSIDE@")
