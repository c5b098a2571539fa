# attack: evaluate code while defaults are computed
def f(x=eval("__import__('os')")):
    return x


print(f())
