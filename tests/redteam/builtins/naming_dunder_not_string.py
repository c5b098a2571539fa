# category: builtins
# attack: an object whose __getattr__ answers every name, read through a naming dunder (__doc__, __version__) to launder a non-string value
# profile: basic
# verdict: error rejected
# run-layer: guard
import random


class Any:
    __doc__ = random

    def __getattr__(self, name):
        return random


print(Any().__version__, Any().__doc__)
