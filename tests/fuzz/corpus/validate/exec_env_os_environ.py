# expect: error
import os
print(os.environ)
