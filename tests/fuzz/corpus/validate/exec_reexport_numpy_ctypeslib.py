# expect: error
# args: --profile data_science
import numpy
print(numpy.ctypeslib.ctypes)
