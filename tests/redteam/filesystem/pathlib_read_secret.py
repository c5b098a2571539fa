# category: filesystem
# attack: pathlib.Path.read_text on the secret
# profile: basic filesystem
import pathlib
print(pathlib.Path("@SECRET_FILE@").read_text())
