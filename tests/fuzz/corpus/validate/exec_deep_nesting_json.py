# expect: error
import json
json.loads("[" * 1000000)
