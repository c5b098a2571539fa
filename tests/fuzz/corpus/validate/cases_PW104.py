from pathlib import Path  # error: filesystem
from os import path  # error: os.path is in filesystem
