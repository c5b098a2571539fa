# attack: subclass string.Formatter and override get_value to leak globals
import string


class Leak(string.Formatter):
    def get_value(self, key, args, kwargs):
        return args[0].__globals__


def f():
    pass


print(sorted(Leak().format("{0}", f))[:3])
