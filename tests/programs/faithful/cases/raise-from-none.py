try:
    1 / 0
except ZeroDivisionError:
    raise ValueError('bad ratio') from None
