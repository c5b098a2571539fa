# category: builtins
# attack: enum's metaclass namespace to install dunder attributes
# profile: basic
import enum
class E(enum.Enum):
    A = 1
print(E.A.__class__.__mro__)
print(E._member_map_)
