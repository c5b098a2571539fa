# category: disclosure
# attack: print(pathlib.Path("/proc/self/environ").read_bytes())
# profile: filesystem
# verdict: error rejected
import pathlib
print(pathlib.Path("/proc/self/environ").read_bytes())
