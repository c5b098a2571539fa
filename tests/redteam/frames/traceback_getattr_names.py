# category: frames
# attack: getattr with frame attribute names held in a list
# profile: basic
try:
    1 / 0
except ZeroDivisionError as e:
    tb = getattr(e, "__traceback__")
    fr = getattr(tb, "tb_frame")
    print(getattr(fr, "f_globals"))
