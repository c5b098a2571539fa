def squares(limit):
    n = 1
    while n * n <= limit:
        yield n * n
        n += 1


print(list(squares(100)))
gen = squares(30)
print(next(gen), next(gen))
for s in gen:
    print("later:", s)
