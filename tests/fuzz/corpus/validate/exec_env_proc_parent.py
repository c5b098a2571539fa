# expect: error
# args: --profile filesystem
import pathlib
print(pathlib.Path("/proc/@TESTPID@/environ").read_bytes())
