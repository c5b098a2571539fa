x.__class__  # error
self._balance = 0  # error
x._  # ok: exactly '_'
x.public  # ok
