# category: frames
# attack: a user exception's __reduce__ exposing the traceback
# profile: basic
class E(Exception):
    pass
try:
    raise E()
except E as e:
    print(e.__reduce__(), e.__traceback__)
