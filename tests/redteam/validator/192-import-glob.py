# attack: list the host's files without the filesystem profile
import glob

print(glob.glob("/*"))
