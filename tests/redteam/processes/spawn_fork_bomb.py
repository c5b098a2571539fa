# category: processes
# attack: while True: / os.fork()
# profile: basic
# verdict: error rejected
import os
while True:
    os.fork()
