# SPDX-License-Identifier: Apache-2.0
# from __future__ imports: annotations that name a later class, and
# other features python3 accepts.
from __future__ import annotations
from __future__ import division, generator_stop, print_function


def leaf(v: int) -> Tree:
    return Tree(v)


class Tree:
    def __init__(self, value: int, children: list[Tree] | None = None):
        self.value = value
        self.children = children or []

    def total(self) -> int:
        return self.value + sum(c.total() for c in self.children)


t = Tree(1, [leaf(2), Tree(3, [leaf(4)])])
print(t.total(), leaf.__name__)
