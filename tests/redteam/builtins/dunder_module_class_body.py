# category: builtins
# attack: __module__ set in a class body, then dataclasses resolving the class's module from sys.modules
# profile: basic
# verdict: error rejected
# run-layer: guard
import dataclasses


@dataclasses.dataclass
class C:
    __module__ = "os"
    x: "system"


print(C.__module__, dataclasses.fields(C))
