# attack: a parameter whose name ends in __roles__
def f(x__roles__):
    return x__roles__
