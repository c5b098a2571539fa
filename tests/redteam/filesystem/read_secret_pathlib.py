# category: filesystem
# attack: print(pathlib.Path("@SECRET_FILE@").read_text())
# profile: filesystem
# verdict: error rejected
# blocked: audit
import pathlib
print(pathlib.Path("@SECRET_FILE@").read_text())
