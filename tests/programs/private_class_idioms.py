# program: private names on the program's own classes, naming dunders, __class__ and a __future__ import, validated and not
# profile: basic
# verdict: ok
# stdout: Stack 3 2 push Stack Push an item. dict True
from __future__ import annotations


class Stack:
    _made = 0

    def __init__(self) -> None:
        self._items: list[int] = []
        Stack._made += 1

    def push(self, x: int) -> Stack:
        """Push an item."""
        self._items.append(x)
        return self

    @property
    def size(self) -> int:
        return len(self._items)

    def _peek(self):
        return self._items[-1]


s = Stack().push(1).push(2).push(3)
s._items.pop()
print(s.__class__.__name__, s.size + 1, s._peek(), Stack.push.__name__,
      type(s).__qualname__, s.push.__doc__, type({}).__name__,
      Stack._made == 1)
