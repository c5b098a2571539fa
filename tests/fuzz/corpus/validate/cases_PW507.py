from os import _exit  # error
import _thread  # error
import os._x  # ok: the dotted name does not start with '_'
