# category: filesystem
# attack: Path.symlink_to the secret then read it
# profile: basic filesystem
import pathlib
link = pathlib.Path("link")
link.symlink_to("@SECRET_FILE@")
print(link.read_text())
