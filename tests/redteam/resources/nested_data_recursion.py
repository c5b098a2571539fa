# category: resources
# attack: deeply nested list then repr
# profile: basic
# timeout: 3
x = []
for _ in range(10 ** 6):
    x = [x]
print(repr(x)[:10])
