# category: disclosure
# attack: os.environ via os.path's os
# profile: basic filesystem
import os.path
print(os.path.os.environ)
