# category: format
# attack: def f(): / pass / print(str.format("{0.__globals__}", f))
# profile: basic
# verdict: error rejected
def f():
    pass
print(str.format("{0.__globals__}", f))
