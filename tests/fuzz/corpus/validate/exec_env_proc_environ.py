# expect: error
# args: --profile filesystem
import pathlib
print(pathlib.Path("/proc/self/environ").read_bytes())
