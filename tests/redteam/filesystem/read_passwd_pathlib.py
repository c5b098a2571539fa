# category: filesystem
# attack: print(pathlib.Path("/etc/passwd").read_text())
# profile: filesystem
# verdict: error rejected
# never: root:x:0
import pathlib
print(pathlib.Path("/etc/passwd").read_text())
