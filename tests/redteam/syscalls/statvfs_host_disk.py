# category: syscalls
# attack: shutil.disk_usage of the host root: statfs, outside the allow-list
# profile: basic filesystem
import shutil
print(shutil.disk_usage("/"), shutil.disk_usage("."))
