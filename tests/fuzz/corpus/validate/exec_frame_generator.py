# expect: error
def g():
    yield 1
x = g()
print(x.gi_frame.f_back.f_globals)
