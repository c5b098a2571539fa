# category: resources
# attack: x = 10**10**8 / print(len(str(x)))
# profile: basic
# verdict: timeout memory_limit rejected
# timeout: 2
x = 10**10**8
print(len(str(x)))
