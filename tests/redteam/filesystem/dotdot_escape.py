# category: filesystem
# attack: ../ traversal out of the workspace
# profile: basic filesystem
import pathlib
p = pathlib.Path("../" * 12 + "@OUTSIDE@"[1:])
p.write_text("x")
print(pathlib.Path("../" * 12 + "@SECRET_FILE@"[1:]).read_text())
