# category: frames
# attack: __context__ chain to reach an inner frame
# profile: basic
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("x")
except ValueError as e:
    print(e.__context__.__traceback__.tb_frame.f_locals)
