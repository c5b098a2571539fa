# attack: rebind the _getattr_ hook at module level
_getattr_ = lambda obj, name: object.__getattribute__(obj, name)
print(().__class__)
