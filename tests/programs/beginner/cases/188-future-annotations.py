# Type hints that name a class before it is defined.
from __future__ import annotations


class Node:
    def __init__(self, value: int, next: Node | None = None) -> None:
        self.value = value
        self.next = next

    def total(self) -> int:
        node: Node | None = self
        result = 0
        while node is not None:
            result += node.value
            node = node.next
        return result


chain = Node(1, Node(2, Node(3)))
print("sum of the chain:", chain.total())
