# attack: read files through pathlib without the filesystem profile
import pathlib

print(pathlib.Path("/etc/hostname").read_text())
