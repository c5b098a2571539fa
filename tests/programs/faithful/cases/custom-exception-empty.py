class Empty(Exception):
    pass


raise Empty
