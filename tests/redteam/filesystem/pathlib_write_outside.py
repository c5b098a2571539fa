# category: filesystem
# attack: pathlib write outside the workspace
# profile: basic filesystem
import pathlib
pathlib.Path("@OUTSIDE@").write_text("x")
