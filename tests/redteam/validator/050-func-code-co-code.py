# attack: read raw bytecode of a function
def f():
    return 1


print(f.__code__.co_code)
