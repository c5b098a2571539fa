# program: pathlib.Path("notes.txt").write_text("saved") / print(pathlib.Path("notes.txt").read_text())
# profile: filesystem
# verdict: ok
# timeout: 30
# stdout: saved
import pathlib
pathlib.Path("notes.txt").write_text("saved")
print(pathlib.Path("notes.txt").read_text())
