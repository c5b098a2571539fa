account._balance  # error: PW305
().__class__  # error: PW305
obj.view__roles__  # error: PW302
obj._x__roles__  # error: PW305 only
obj.__dict__['x'] = 1  # error: PW305
