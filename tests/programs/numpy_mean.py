# program: a = np.arange(10) / print(a.mean(), np.eye(3).shape)
# profile: data_science
# verdict: ok
# timeout: 30
# stdout: 4.5 (3, 3)
import numpy as np
a = np.arange(10)
print(a.mean(), np.eye(3).shape)
