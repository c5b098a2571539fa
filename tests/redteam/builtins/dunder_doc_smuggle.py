# category: builtins
# attack: __doc__ and __name__ assignment to smuggle a format string that walks attributes, then str.format on it
# profile: basic
# verdict: error rejected
# run-layer: guard
def f():
    pass


setattr(f, "__doc__", "{0.__globals__[__builtins__]}")
print(f.__doc__.format(f))
