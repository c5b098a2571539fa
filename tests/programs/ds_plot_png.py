# program: ds plot png
# profile: data_science
# verdict: ok
# timeout: 30
# stdout: saved
# files: plot.png=image/png
import matplotlib.pyplot as plt
import numpy as np
x = np.linspace(0, 6.28, 100)
fig, ax = plt.subplots(figsize=(3, 2), dpi=80)
ax.plot(x, np.cos(x))
fig.savefig("output/plot.png")
print("saved")
