# attack: define a function named print
def print(*args):
    return None
