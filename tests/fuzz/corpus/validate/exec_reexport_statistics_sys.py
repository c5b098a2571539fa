# expect: error
import statistics
print(statistics.sys)
