# expect: ok
# args: --profile data_science
# stdout: 4.5 (3, 3)
import numpy as np
a = np.arange(10)
print(a.mean(), np.eye(3).shape)
