# attack: install a trace function on a frame
def gen():
    yield


g = gen()
g.gi_frame.f_trace = print
