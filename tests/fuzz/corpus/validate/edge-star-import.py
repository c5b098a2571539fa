from os import *
from . import x
from ..a.b import c as d
import a.b.c as e
__import__("os")
