# expect: error
# args: --profile filesystem
# check: nofile
import io
with io.open("@OUTSIDE@", "w") as f:
    f.write("pwned")
