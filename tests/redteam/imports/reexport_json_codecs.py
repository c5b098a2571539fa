# category: imports
# attack: print(json.codecs.open)
# profile: basic
# verdict: error rejected
import json
print(json.codecs.open)
