# category: filesystem
# attack: os.open(name, dir_fd=fd) with a directory descriptor outside the workspace (shutil.rmtree's dir_fd): the path rules saw only the relative name
# profile: filesystem basic
# run-layer: no effect
import shutil
for fd in range(64):
    try:
        shutil.rmtree("secret", dir_fd=fd)
        shutil.rmtree("@SECRET_DIR@", dir_fd=fd)
    except OSError as e:
        last = e
print(last)
