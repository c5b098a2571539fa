# attack: define a function with a private name
def _helper():
    return 1


print(_helper())
