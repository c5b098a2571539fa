# category: builtins
# attack: super() in a class body reaching __getattribute__ and __subclasses__
# profile: basic
class A:
    def f(self):
        return super().__getattribute__("__class__")
print(A().f().__subclasses__())
