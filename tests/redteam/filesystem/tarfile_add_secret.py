# category: filesystem
# attack: tarfile add of the secret directory
# profile: basic filesystem
import tarfile
with tarfile.open("t.tar", "w") as t:
    t.add("@SECRET_DIR@", "s")
print(tarfile.open("t.tar").extractfile("s/secret.txt").read())
