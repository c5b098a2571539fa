# program: ds scipy solve
# profile: data_science
# verdict: ok
# timeout: 30
# stdout: [2. 3.] 1.414214 0.5
import numpy as np
from scipy import linalg, optimize, stats
x = linalg.solve(np.array([[3.0, 1.0], [1.0, 2.0]]), np.array([9.0, 8.0]))
root = optimize.brentq(lambda t: t * t - 2, 0, 2)
print(x, round(root, 6), stats.norm.cdf(0))
