# attack: climb from a caught exception's traceback to the caller's frame
try:
    1 / 0
except ZeroDivisionError as e:
    tb = e.__traceback__
    print(tb.tb_frame.f_globals["__builtins__"], tb.tb_frame.f_back)
