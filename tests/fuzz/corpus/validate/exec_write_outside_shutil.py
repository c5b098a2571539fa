# expect: error
# args: --profile filesystem
# check: nofile
import pathlib, shutil
pathlib.Path("mine.txt").write_text("pwned")
shutil.copyfile("mine.txt", "@OUTSIDE@")
