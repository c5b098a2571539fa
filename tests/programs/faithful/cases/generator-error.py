def numbers():
    yield 1
    yield 1 / 0


print(list(numbers()))
