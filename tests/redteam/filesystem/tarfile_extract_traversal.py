# category: filesystem
# attack: a tar with ../ and absolute members extracted
# profile: basic filesystem
import tarfile, io
data = b"x"
with tarfile.open("evil.tar", "w") as t:
    for name in ("../" * 10 + "@OUTSIDE@"[1:], "@OUTSIDE@-abs", "/tmp/@TOKEN@-tar"):
        info = tarfile.TarInfo(name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
tarfile.open("evil.tar").extractall(".")
