# category: disclosure
# attack: read every /proc/self/fd/N
# profile: basic filesystem
import pathlib
for p in pathlib.Path("/proc/self/fd").iterdir():
    print(p, p.read_bytes()[:100])
