# parity: parameter and return annotations are ordinary expressions and are allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
def f(x: int, *args: str, y: float = 1.0, **kw: bool) -> str:
    return str(x)
