import os  # error
import sys, math  # not PW101: sys is the jobe profile's (PW102), math is fine
import os.path  # error: needs filesystem
import collections.abc  # ok
