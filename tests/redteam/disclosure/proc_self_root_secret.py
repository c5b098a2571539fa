# category: disclosure
# attack: /proc/self/root/<secret> path
# profile: basic filesystem
import pathlib
print(pathlib.Path("/proc/self/root@SECRET_FILE@").read_text())
