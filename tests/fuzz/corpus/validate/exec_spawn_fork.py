# expect: error
import os
print(os.fork())
