# category: resources
# attack: fill the workspace disk
# profile: basic filesystem
# timeout: 3
import pathlib
with pathlib.Path("big").open("wb") as f:
    while True:
        f.write(b"\0" * (1 << 20))
