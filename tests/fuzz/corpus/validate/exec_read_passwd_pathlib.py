# expect: error
# args: --profile filesystem
# absent: root:x:0
import pathlib
print(pathlib.Path("/etc/passwd").read_text())
