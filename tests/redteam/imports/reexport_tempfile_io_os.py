# category: imports
# attack: tempfile._os / tempfile.io.open
# profile: basic filesystem
import tempfile
print(tempfile.io.open("@SECRET_FILE@").read())
