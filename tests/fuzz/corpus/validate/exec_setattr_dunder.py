# expect: error
class A:
    pass
setattr(A, "__getattribute__", lambda s, n: 1)
