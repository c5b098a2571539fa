# category: resources
# attack: 'a' * 10**12
# profile: basic
s = 'a' * 10 ** 12
