# category: filesystem
# attack: shutil.copy the secret into the workspace
# profile: basic filesystem
import shutil, pathlib
shutil.copy("@SECRET_FILE@", "copy.txt")
print(pathlib.Path("copy.txt").read_text())
