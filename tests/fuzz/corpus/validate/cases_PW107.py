from string import Formatter  # error
from string import ascii_letters  # ok
from mymod import Formatter  # not PW107 (PW103 instead)
