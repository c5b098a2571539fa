# attack: the object leaked through AttributeError.obj leads to its module loader
import string

try:
    string.missing
except AttributeError as err:
    print(err.obj.__loader__)
