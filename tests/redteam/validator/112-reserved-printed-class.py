# attack: a class named printed
class printed:
    pass
