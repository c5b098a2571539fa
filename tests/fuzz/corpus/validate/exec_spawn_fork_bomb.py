# expect: error
import os
while True:
    os.fork()
