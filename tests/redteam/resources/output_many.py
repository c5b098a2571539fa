# category: resources
# attack: Many files: at most 16 are listed, the rest only counted
# profile: filesystem
# verdict: ok error rejected
# files-count: 16
# Many files: at most 16 are listed, the rest only counted.
import pathlib
for i in range(300):
    pathlib.Path(f"output/f{i:03d}.txt").write_text("x")
