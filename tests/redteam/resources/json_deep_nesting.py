# category: resources
# attack: json.loads of a deeply nested document
# profile: basic
import json
json.loads("[" * 10 ** 6 + "]" * 10 ** 6)
