from subprocess import run  # error
from os import system  # error
from math import sqrt  # ok
from collections.abc import Mapping  # ok
