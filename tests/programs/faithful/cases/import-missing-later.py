# faithful: full
print('start')


def load():
    import numpyy
    return numpyy


load()
