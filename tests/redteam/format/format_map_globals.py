# category: format
# attack: format_map with a dunder field path
# profile: basic
import json
print("{f.__globals__[__builtins__]}".format_map({"f": json.dumps}))
