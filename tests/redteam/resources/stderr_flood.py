# category: resources
# attack: write to stderr forever
# profile: basic
# timeout: 3
import sys
while True:
    sys.stderr.write("e" * 65536)
