import string
f = string.Formatter()  # error
from string import Formatter  # PW107
from string import ascii_letters  # ok
