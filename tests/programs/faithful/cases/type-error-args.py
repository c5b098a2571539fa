def greet(name):
    return 'hi ' + name


greet('a', 'b')
