class _Base:  # error
    pass
class Base:  # ok
    pass
