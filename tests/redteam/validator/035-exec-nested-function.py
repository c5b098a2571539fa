# attack: hide exec in a nested function that is called later
def outer():
    def inner(src):
        exec(src)
    return inner


outer()("print('escaped')")
