def _helper():  # error
    pass
class A:
    def __init__(self):  # ok: allowed magic name, indented
        pass
    def __str__(self):  # error: not in the allowed list
        return ''
def __eq__(a, b):  # error: at column 0
    pass
def print():  # error: reserved
    pass
