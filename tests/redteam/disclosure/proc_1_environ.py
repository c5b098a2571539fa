# category: disclosure
# attack: /proc/1/environ
# profile: basic filesystem
import pathlib
print(pathlib.Path("/proc/1/environ").read_bytes())
