# category: processes
# attack: print(os.fork())
# profile: basic
# verdict: error rejected
import os
print(os.fork())
