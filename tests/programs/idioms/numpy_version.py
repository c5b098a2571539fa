# SPDX-License-Identifier: Apache-2.0
# profile: data_science
# A module's version and name, and the names of numpy's types.
import numpy as np

a = np.arange(6).reshape(2, 3)
print(isinstance(np.__version__, str), np.__name__)
print(type(a).__name__, a.__class__.__name__, a.dtype.__class__.__name__)
print(np.mean.__name__)
