# category: processes
# attack: reach the guard's _signal through a KeyboardInterrupt's traceback frames to replace the SIGINT handler
# profile: basic
# verdict: error rejected
# never: replaced
try:
    raise KeyboardInterrupt
except KeyboardInterrupt as e:
    f = e.__traceback__.tb_frame
    while f is not None:
        g = f.f_globals
        if "_signal" in g:
            g["_signal"].signal(2, 1)
            print("replaced")
        f = f.f_back
