# attack: read and rewrite closure cells of a guarded function
def make():
    secret = "token"
    return lambda: secret


cell = make().__closure__[0]
print(cell.cell_contents)
