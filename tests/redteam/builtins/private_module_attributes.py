# category: builtins
# attack: a library module's private attribute (random._os) to reach os, now that the default rules leave names starting with '_' to the guard
# profile: basic
# verdict: error
# run-layer: guard
import random
random._os.system("cat @SECRET_FILE@ > @OUTSIDE@")
