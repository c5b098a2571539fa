# category: disclosure
# attack: print(os.environ)
# profile: basic
# verdict: error rejected
import os
print(os.environ)
