calls = {}


def counted(func):
    def wrapper(*args):
        calls[func] = calls.get(func, 0) + 1
        return func(*args)
    return wrapper


@counted
def add(a, b):
    return a + b


@counted
def negate(a):
    return -a


for i in range(5):
    add(i, i)
negate(3)
print("calls per function:", sorted(calls.values()))
