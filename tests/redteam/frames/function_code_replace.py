# category: frames
# attack: a function's __code__.replace() to smuggle bytecode
# profile: basic
def f():
    return 1
c = f.__code__
print(c.replace(co_names=("open",)))
