account._balance  # ok: the guard judges it on the object at run time
().__class__  # ok: type(())
obj.view__roles__  # error: PW302
obj._x__roles__  # error: PW305 only
obj.__dict__['x'] = 1  # error: PW305
obj.__class__.__subclasses__()  # error: PW305
