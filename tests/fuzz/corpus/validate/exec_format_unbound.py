# expect: error
def f():
    pass
print(str.format("{0.__globals__}", f))
