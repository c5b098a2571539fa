__builtins__['open']  # error
__import__  # error
if __name__ == '__main__':  # ok
    pass
