# expect: error
import json
print(json.codecs.open)
