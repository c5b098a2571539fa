# attack: the unbound str.format on a function's closure
def outer():
    k = 1
    return lambda: k


print(str.format("{0.cell_contents}", outer().__closure__[0]))
