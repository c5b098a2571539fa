# category: builtins
# attack: assigning __name__ / __qualname__ / __module__ of a class so a library takes it for another module's class
# profile: basic
# verdict: error rejected
# run-layer: guard
class C:
    pass


C.__module__ = "os"
C.__qualname__ = "system"
print(C.__module__)
