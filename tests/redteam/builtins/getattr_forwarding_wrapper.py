# category: builtins
# attack: the program's own wrapper class forwarding __getattr__ to a library module, so a private name is read "on the program's object"
# profile: basic
# verdict: error rejected
# run-layer: guard
import random


class Wrap:
    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        return getattr(self._target, name)


Wrap(random)._os.system("cat @SECRET_FILE@ > @OUTSIDE@")
