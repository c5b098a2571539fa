# category: imports
# attack: print(tempfile._os)
# profile: filesystem
# verdict: error rejected
import tempfile
print(tempfile._os)
