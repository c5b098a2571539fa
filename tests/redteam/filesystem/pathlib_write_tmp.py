# category: filesystem
# attack: write a file in the host /tmp
# profile: basic filesystem
import pathlib
pathlib.Path("/tmp/@TOKEN@-tmp").write_text("x")
