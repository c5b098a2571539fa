# category: builtins
# attack: class A: / pass / setattr(A, "__getattribute__", lambda s, n: 1)
# profile: basic
# verdict: error rejected
class A:
    pass
setattr(A, "__getattribute__", lambda s, n: 1)
