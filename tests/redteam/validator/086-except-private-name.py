# attack: bind a caught exception to a private name
try:
    1 / 0
except ZeroDivisionError as _e:
    print(_e)
