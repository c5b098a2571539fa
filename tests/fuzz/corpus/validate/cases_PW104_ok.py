from pathlib import Path  # ok
from os import path  # ok: every name is an allowed submodule
from os import system  # error: os itself is not allowed
