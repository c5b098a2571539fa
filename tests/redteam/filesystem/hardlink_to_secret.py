# category: filesystem
# attack: Path.hardlink_to the secret
# profile: basic filesystem
import pathlib
pathlib.Path("hard").hardlink_to("@SECRET_FILE@")
print(pathlib.Path("hard").read_text())
