# expect: memory_limit
# args: --memory 64m
a = []
while True:
    a.append(" " * 10**6)
