# expect: ok
# args: --profile filesystem
# stdout: saved
import pathlib
pathlib.Path("notes.txt").write_text("saved")
print(pathlib.Path("notes.txt").read_text())
