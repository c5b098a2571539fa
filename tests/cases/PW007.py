# /// script
# dependencies = [
#   "numpy>=1.24",
#   "torch",
#   "Scikit_Learn",
# ]
# ///
import statistics
print(statistics.mean([1, 2]))
