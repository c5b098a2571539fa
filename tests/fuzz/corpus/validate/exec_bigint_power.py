# expect: timeout,memory_limit
# args: --timeout 2
x = 10**10**8
print(len(str(x)))
