# category: imports
# attack: linecache.getline on the secret
# profile: basic
import linecache
print(linecache.getline("@SECRET_FILE@", 1))
