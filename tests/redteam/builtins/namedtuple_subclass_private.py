# category: builtins
# attack: a class of the program built on a class a library made with type(), reading the library's private names through self
# profile: basic
# verdict: error rejected
# run-layer: guard
import collections


class Point(collections.namedtuple("P", "x y")):
    def leak(self):
        return self._make.__func__


print(Point(1, 2).leak())
