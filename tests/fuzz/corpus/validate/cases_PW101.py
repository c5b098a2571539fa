import os  # error
import sys, math  # error: sys; math is fine
import os.path  # error: needs filesystem
import collections.abc  # ok
