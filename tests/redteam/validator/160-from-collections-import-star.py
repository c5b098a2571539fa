# attack: star import from an allowed package
from collections import *
