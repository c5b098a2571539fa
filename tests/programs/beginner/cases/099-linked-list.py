class Node:
    def __init__(self, value, next_node=None):
        self.value = value
        self.next_node = next_node


class LinkedList:
    def __init__(self):
        self.head = None

    def push(self, value):
        self.head = Node(value, self.head)

    def to_list(self):
        out = []
        node = self.head
        while node is not None:
            out.append(node.value)
            node = node.next_node
        return out

    def reverse(self):
        prev = None
        node = self.head
        while node:
            node.next_node, prev, node = prev, node, node.next_node
        self.head = prev


ll = LinkedList()
for v in [1, 2, 3, 4]:
    ll.push(v)
print(ll.to_list())
ll.reverse()
print(ll.to_list())
