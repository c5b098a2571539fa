def check(x):
    assert x > 0, 'x must be positive'


check(-1)
