# attack: rewrite the locals of another frame
def gen():
    yield


g = gen()
g.gi_frame.f_locals["x"] = 1
