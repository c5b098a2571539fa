# category: filesystem
# attack: pathlib.Path("mine.txt").write_text("pwned") / shutil.copyfile("mine.txt", "@OUTSIDE@")
# profile: filesystem
# verdict: error rejected
import pathlib, shutil
pathlib.Path("mine.txt").write_text("pwned")
shutil.copyfile("mine.txt", "@OUTSIDE@")
