# category: imports
# attack: print(statistics.sys) and its modules: the sys statistics imported is the facade a program gets by importing sys, without modules
# profile: basic
# verdict: error rejected
import statistics
print(statistics.sys)
print(statistics.sys.modules)
