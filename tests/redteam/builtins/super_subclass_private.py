# category: builtins
# attack: a class of the program deriving from super, whose instances would count as the program's own, reading a library object's and a module view's private names through it
# profile: basic
# verdict: error
# run-layer: guard
import random


class S(super):
    pass


print(S(random.Random, random.Random(1))._randbelow)
view = S(type(random), random)._ModuleView__m
view._os.system("cat @SECRET_FILE@ > @OUTSIDE@")
