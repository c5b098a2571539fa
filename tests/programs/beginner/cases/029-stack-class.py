class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        return self.items.pop()

    def peek(self):
        return self.items[-1]

    def is_empty(self):
        return len(self.items) == 0

    def __len__(self):
        return len(self.items)


def balanced(expr):
    pairs = {")": "(", "]": "[", "}": "{"}
    s = Stack()
    for ch in expr:
        if ch in "([{":
            s.push(ch)
        elif ch in pairs:
            if s.is_empty() or s.pop() != pairs[ch]:
                return False
    return s.is_empty()


for e in ["(a[b]{c})", "([)]", "((", "{[()()]}"]:
    print(e, balanced(e))
