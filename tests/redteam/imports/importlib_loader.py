# category: imports
# attack: print(json.__loader__.load_module("os"))
# profile: basic
# verdict: error rejected
import json
print(json.__loader__.load_module("os"))
