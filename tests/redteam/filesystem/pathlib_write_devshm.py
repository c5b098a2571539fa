# category: filesystem
# attack: write a file in /dev/shm
# profile: basic filesystem
import pathlib
pathlib.Path("/dev/shm/@TOKEN@-shm").write_text("x")
