# category: filesystem
# attack: numpy.save to a path outside
# profile: data_science
import numpy as np
np.save("@OUTSIDE@", np.zeros(3))
