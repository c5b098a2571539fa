# program: ds plot formats
# profile: data_science
# verdict: ok
# timeout: 30
# stdout: saved
# files: a.svg=image/svg+xml b.jpg=image/jpeg c.pdf=application/pdf
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(2, 2), dpi=40)
ax.bar(["x", "y"], [3, 5])
for name in ("a.svg", "b.jpg", "c.pdf"):
    fig.savefig("output/" + name)
print("saved")
