class Oops(Exception):
    def __str__(self):
        return 'custom text'


raise Oops()
