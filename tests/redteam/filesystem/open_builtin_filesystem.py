# category: filesystem
# attack: the filesystem profile's open() on the secret, /proc, a '..' path, a descriptor, an opener, a bytes path, a path through /dev/fd, and io.open/io.FileIO, which that profile gives whole
# profile: basic filesystem
import io

real = []


def grab(f):
    try:
        v = f()
    except Exception:  # noqa: BLE001 - each path is tried
        return
    real.append(v)


grab(lambda: open("@SECRET_FILE@").read())
grab(lambda: open(b"@SECRET_FILE@").read())
grab(lambda: open("../" * 12 + "@SECRET_FILE@").read())
grab(lambda: open("/proc/self/environ").read())
grab(lambda: open("/proc/1/environ").read())
grab(lambda: open("/dev/fd/3").read())
grab(lambda: open(0).read())
grab(lambda: open(3).read())
grab(lambda: open("x", opener=lambda p, f: 3).read())
grab(lambda: open("x", "w", closefd=False))
grab(lambda: io.open("@SECRET_FILE@").read())
grab(lambda: io.FileIO("@SECRET_FILE@").read())
grab(lambda: io.open_code("@SECRET_FILE@").read())
with open("mine.txt", "w") as f:
    f.write("ok")
with open("mine.txt") as f:
    print(f.read())
for v in real:
    print("@LEAK@", repr(v)[:200])
