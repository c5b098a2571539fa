# category: resources
# attack: open files until the fd table is full
# profile: basic filesystem
import pathlib
fs = []
for i in range(100000):
    fs.append(pathlib.Path(f"f{i}").open("w"))
