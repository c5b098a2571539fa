# attack: a class whose name ends in __roles__
class Page__roles__:
    pass
