# category: syscalls
# attack: ndarray.ctypes objects: from_address to read memory
# profile: data_science
import numpy
a = numpy.zeros(3)
s = a.ctypes.shape
print(type(s).from_address(id(a)))
