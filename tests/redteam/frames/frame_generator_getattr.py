# category: frames
# attack: frame generator getattr
# profile: basic
# verdict: error rejected
def g():
    yield 1
x = g()
print(getattr(x, "gi_" + "frame"))
