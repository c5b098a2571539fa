try:
    pass
except ValueError as _e:  # error
    pass
except TypeError as err:  # ok
    pass
