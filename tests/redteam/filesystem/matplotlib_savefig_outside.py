# category: filesystem
# attack: matplotlib savefig to /tmp
# profile: data_science
import matplotlib.pyplot as plt
plt.plot([1, 2])
plt.savefig("/tmp/@TOKEN@-plot.png")
