# attack: positional-only default replacing the _write_ hook
def f(_write_=lambda o: o, /):
    x = []
    x.append(1)
    return x


print(f())
