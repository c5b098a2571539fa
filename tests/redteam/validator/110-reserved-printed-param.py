# attack: a parameter named printed
def f(printed):
    return printed
