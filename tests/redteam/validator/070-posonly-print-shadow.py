# attack: positional-only default replacing the _print_ hook
def f(_print_=None, /):
    print("hi")


f()
