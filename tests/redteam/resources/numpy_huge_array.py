# category: resources
# attack: numpy.ones of 10**12 elements
# profile: data_science
import numpy as np
a = np.ones(10 ** 12)
