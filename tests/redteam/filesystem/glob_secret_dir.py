# category: filesystem
# attack: glob the secret directory and /proc
# profile: basic filesystem
import glob
print(glob.glob("@SECRET_DIR@/*"), glob.glob("/proc/*/environ"))
