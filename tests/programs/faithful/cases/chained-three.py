# faithful: full
def a():
    return 1 / 0


def b():
    try:
        a()
    except ZeroDivisionError as e:
        raise ArithmeticError("in b") from e


def c():
    try:
        b()
    except ArithmeticError:
        {}["c"]


c()
