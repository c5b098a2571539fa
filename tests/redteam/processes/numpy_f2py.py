# category: processes
# attack: numpy.f2py.compile spawns a compiler
# profile: data_science
import numpy
numpy.f2py.compile("x", modulename="m")
