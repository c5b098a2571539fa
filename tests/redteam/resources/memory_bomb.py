# category: resources
# attack: a = [] / while True: / a.append(" " * 10**6)
# profile: basic
# verdict: memory_limit rejected
# memory: 64m
a = []
while True:
    a.append(" " * 10**6)
