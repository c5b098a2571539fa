# parity: parameter and return annotations are ordinary expressions and are allowed (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: accept
def f(x: int, *args: str, y: float = 1.0, **kw: bool) -> str:
    return str(x)
