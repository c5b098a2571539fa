# category: imports
# attack: print(collections.abc.sys)
# profile: basic
# verdict: error rejected
import collections.abc
print(collections.abc.sys)
