# attack: star import from os
from os import *
