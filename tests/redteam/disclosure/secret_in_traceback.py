# category: disclosure
# attack: an error whose message would carry the secret file's content
# profile: basic filesystem
import pathlib
raise ValueError(pathlib.Path("@SECRET_FILE@").read_text())
