# category: imports
# attack: import builtins then builtins.open
# profile: basic
import builtins
print(builtins.open("@SECRET_FILE@").read())
