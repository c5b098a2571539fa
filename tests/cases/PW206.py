getattr(x, '__class__')  # ok: read as type(x)
setattr(x, '_secret', 1)  # ok: the guard judges it on the object
getattr(x, 'name')  # ok
getattr(x, name)  # ok: not a literal
getattr(x, '__dict__')  # error
setattr(x, '__class__', int)  # error: __class__ is only read
hasattr(f, '__doc__')  # ok
delattr(f, '__name__')  # error
getattr(x, '_y__roles__')  # error
