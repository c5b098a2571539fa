# expect: error
print(f"{(1).__class__.__base__}")
