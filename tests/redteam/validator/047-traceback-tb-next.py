# attack: follow tb_next to a deeper frame and read its locals
def boom():
    secret = "x"
    raise ValueError(secret)


try:
    boom()
except ValueError as err:
    t = err.__traceback__.tb_next
    print(t.tb_frame.f_locals)
