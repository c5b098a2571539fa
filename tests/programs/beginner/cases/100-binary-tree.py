class Tree:
    def __init__(self, value):
        self.value = value
        self.left = None
        self.right = None

    def insert(self, value):
        if value < self.value:
            if self.left is None:
                self.left = Tree(value)
            else:
                self.left.insert(value)
        else:
            if self.right is None:
                self.right = Tree(value)
            else:
                self.right.insert(value)

    def in_order(self):
        left = self.left.in_order() if self.left else []
        right = self.right.in_order() if self.right else []
        return left + [self.value] + right

    def height(self):
        hl = self.left.height() if self.left else 0
        hr = self.right.height() if self.right else 0
        return 1 + max(hl, hr)


root = Tree(50)
for v in [30, 70, 20, 40, 60, 80, 35]:
    root.insert(v)
print(root.in_order())
print("height:", root.height())
