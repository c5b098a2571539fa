# category: filesystem
# attack: shutil.make_archive of the secret directory
# profile: basic filesystem
import shutil, zipfile
shutil.make_archive("arch", "zip", "@SECRET_DIR@")
print(zipfile.ZipFile("arch.zip").read("secret.txt"))
