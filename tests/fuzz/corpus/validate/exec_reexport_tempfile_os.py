# expect: error
# args: --profile filesystem
import tempfile
print(tempfile._os)
