_x = 1  # error: PW510 (one finding)
_ = 2  # ok: '_' alone
__doc__ = 'x'  # error: PW510
_getitem_ = None  # error: PW510
view__roles__ = ()  # error: PW502
print = 3  # error: PW503
def f(_a, *_b, c, **_k):  # error x3: PW506
    return _a  # error: PW510
def _helper():  # error: PW511
    pass
def __eq__(a, b):  # error: PW511 (not in a class)
    pass
class _Base:  # error: PW505
    pass
try:
    pass
except ValueError as _e:  # error: PW509
    pass
import math as _m  # error: PW508
from math import _private  # error: PW507
class Registry:
    _items = []  # ok: a private class attribute
    __count = 0  # ok: mangled as python3 does
    _a, _b = 1, 2  # error x2: PW510 (only a plain assignment)
    __slots__ = ()  # error: PW510 (a dunder)
    def _helper(self):  # ok: a private method
        return self._items
    def __hidden(self):  # ok
        _tmp = 1  # error: PW510 (a local, not a class attribute)
        return _tmp  # error: PW510
