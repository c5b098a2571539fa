# category: format
# attack: print("{x.__class__}".format_map({"x": 1}))
# profile: basic
# verdict: error rejected
print("{x.__class__}".format_map({"x": 1}))
