# /// script
# dependencies = ["numpy>=1.24", "scikit-learn", "pandas[performance]"]
# ///
import numpy
print(numpy.zeros(2))
