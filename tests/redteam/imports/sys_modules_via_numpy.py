# category: imports
# attack: numpy.lib re-exports (numpy.lib.npyio.os, numpy.compat) to reach os
# profile: data_science
import numpy
print(numpy.lib.npyio.os.system("touch @OUTSIDE@"))
