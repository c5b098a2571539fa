# category: format
# attack: print(f"{(1).__class__.__base__}")
# profile: basic
# verdict: error rejected
print(f"{(1).__class__.__base__}")
