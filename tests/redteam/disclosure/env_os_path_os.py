# category: disclosure
# attack: print(os.path.os.environ)
# profile: filesystem
# verdict: error rejected
import os.path
print(os.path.os.environ)
