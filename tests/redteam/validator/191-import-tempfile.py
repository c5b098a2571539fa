# attack: create files without the filesystem profile
import tempfile

print(tempfile.mkdtemp())
