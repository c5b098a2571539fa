from . import helpers  # error
from .. import x  # error
