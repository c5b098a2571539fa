# expect: error
def g():
    yield 1
x = g()
print(getattr(x, "gi_" + "frame"))
