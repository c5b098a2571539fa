# attack: read a frame's globals
def grab(frame):
    return frame.f_globals["__builtins__"]


print(grab)
