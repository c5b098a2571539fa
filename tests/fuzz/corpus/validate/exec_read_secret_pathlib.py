# expect: error
# args: --profile filesystem
# blocked: audit
import pathlib
print(pathlib.Path("@SECRET_FILE@").read_text())
