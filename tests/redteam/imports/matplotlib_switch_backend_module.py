# category: imports
# attack: plt.switch_backend('module://NAME') imports any module by name, outside the allow-list (here the interactive debugger's, through matplotlib)
# profile: data_science basic
# run-layer: guard
import matplotlib.pyplot as plt
plt.switch_backend("module://this")
plt.switch_backend("module://antigravity")
