# attack: keyword-only parameter named like a guard hook
def f(*, _getattr_=getattr):
    return f


print(f())
