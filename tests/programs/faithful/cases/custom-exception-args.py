class MyError(Exception):
    pass


raise MyError('a', 2)
