# attack: read files through io.open without the filesystem profile
import io

print(io.open("/etc/hostname").read())
