# expect: error
import json
print(json.__loader__.load_module("os"))
