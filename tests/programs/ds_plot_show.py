# program: ds plot show: plt.show() and a figure left open come back as images
# profile: data_science
# verdict: ok
# timeout: 30
# stdout: shown
# files: own.png=image/png figure-1.png=image/png figure-2.png=image/png
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(2, 2), dpi=40)
ax.plot([1, 2, 3])
fig.savefig("output/own.png")
plt.show()
plt.figure(figsize=(2, 1), dpi=40)
plt.bar([1, 2], [3, 4])
print("shown")
