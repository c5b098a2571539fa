# category: frames
# attack: frame generator
# profile: basic
# verdict: error rejected
def g():
    yield 1
x = g()
print(x.gi_frame.f_back.f_globals)
