# SPDX-License-Identifier: Apache-2.0
# The names that describe an object: type(d).__name__, greet.__doc__,
# self.__class__.__name__, __qualname__, __module__.
def greet(name):
    """Return a greeting."""
    return f"Hello, {name}"


class Pet:
    """A pet with a name."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"{self.__class__.__name__}({self.name!r})"

    class Tag:
        pass


d = {"a": 1}
print(type(d).__name__, greet.__doc__, greet.__name__)
print(Pet("Rex"), Pet.__doc__, Pet.__module__, Pet.Tag.__qualname__)
print(d.__class__ is dict, (1).__class__.__name__, type(greet).__name__)
print(greet("Ada").__class__.__name__, Pet.Tag.__name__)
print(__name__, [].__class__.__name__, len.__name__)
