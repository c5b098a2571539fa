# expect: error
import collections.abc
print(collections.abc.sys)
