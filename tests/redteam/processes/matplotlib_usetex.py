# category: processes
# attack: matplotlib usetex makes it spawn latex
# profile: data_science
import matplotlib
matplotlib.rcParams["text.usetex"] = True
import matplotlib.pyplot as plt
plt.title("x")
plt.savefig("p.png")
