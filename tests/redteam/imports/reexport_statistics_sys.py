# category: imports
# attack: print(statistics.sys)
# profile: basic
# verdict: error rejected
import statistics
print(statistics.sys)
