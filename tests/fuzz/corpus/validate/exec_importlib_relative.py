# expect: error
from . import os
