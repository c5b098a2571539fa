# expect: error
# args: --profile filesystem
import os.path
print(os.path.os.environ)
