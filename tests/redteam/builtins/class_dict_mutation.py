# category: builtins
# attack: mutate a class's __dict__ through mappingproxy tricks
# profile: basic
class A:
    pass
d = A.__dict__
print(d.__class__)
