# category: disclosure
# attack: list the secret directory and the host /tmp
# profile: basic filesystem
import pathlib
print(list(pathlib.Path("@SECRET_DIR@").iterdir()), list(pathlib.Path("/tmp").iterdir()))
print(pathlib.Path("@SECRET_FILE@").exists())
