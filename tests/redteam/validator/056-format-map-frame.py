# attack: format_map traverses from a traceback frame to the globals
try:
    1 / 0
except ZeroDivisionError as e:
    print("{t.tb_frame.f_globals}".format_map({"t": e.__traceback__}))
