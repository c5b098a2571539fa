# category: imports
# attack: print(numpy.ctypeslib.ctypes)
# profile: data_science
# verdict: error rejected
import numpy
print(numpy.ctypeslib.ctypes)
