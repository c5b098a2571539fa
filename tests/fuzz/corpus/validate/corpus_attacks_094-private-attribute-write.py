# attack: overwrite a private attribute of a library object
import random

random._inst = None
