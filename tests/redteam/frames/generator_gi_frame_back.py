# category: frames
# attack: generator gi_frame.f_back.f_globals
# profile: basic
def g():
    yield 1
x = g()
next(x)
print(x.gi_frame.f_back.f_globals["__builtins__"])
