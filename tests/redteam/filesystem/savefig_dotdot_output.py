# category: filesystem
# attack: savefig to paths through output/ with '..', and to /tmp, to leave the workspace
# profile: data_science
# stdout: refused 3
import matplotlib.pyplot as plt
plt.plot([1, 2])
refused = 0
for path in ("output/../../../tmp/@TOKEN@-a.png", "output/./../@TOKEN@-b.png",
             "/tmp/@TOKEN@-c.png"):
    try:
        plt.savefig(path)
    except PermissionError:
        refused += 1
print("refused", refused)
