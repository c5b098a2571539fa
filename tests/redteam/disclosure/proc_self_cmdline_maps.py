# category: disclosure
# attack: /proc/self/cmdline, maps and mountinfo
# profile: basic filesystem
import pathlib
for n in ("cmdline", "maps", "mountinfo", "status"):
    print(pathlib.Path("/proc/self/" + n).read_bytes()[:200])
