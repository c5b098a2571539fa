# category: filesystem
# attack: zipfile.ZipFile.write of the secret
# profile: basic filesystem
import zipfile
with zipfile.ZipFile("z.zip", "w") as z:
    z.write("@SECRET_FILE@", "s")
print(zipfile.ZipFile("z.zip").read("s"))
