# known: the limit is hit in the guard's attribute read: "[Previous line repeated N more times]" is 2 lower
class Node:
    def depth(self):
        return 1 + self.depth()


Node().depth()
