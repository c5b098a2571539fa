# category: resources
# attack: 10**10**8 big integer
# profile: basic
# timeout: 2
x = 10 ** 10 ** 8
print(len(str(x)))
