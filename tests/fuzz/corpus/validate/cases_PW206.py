getattr(x, '__class__')  # error
setattr(x, '_secret', 1)  # error
getattr(x, 'name')  # ok
getattr(x, name)  # ok: not a literal
