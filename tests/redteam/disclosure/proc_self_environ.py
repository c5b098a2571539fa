# category: disclosure
# attack: /proc/self/environ
# profile: basic filesystem
import pathlib
print(pathlib.Path("/proc/self/environ").read_bytes())
