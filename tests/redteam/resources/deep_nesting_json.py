# category: resources
# attack: json.loads("[" * 1000000)
# profile: basic
# verdict: error rejected
import json
json.loads("[" * 1000000)
