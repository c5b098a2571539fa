from sys import argv, stdin, exit  # ok
from sys import settrace  # error
from sys import argv, modules  # error
