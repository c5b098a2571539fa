# category: filesystem
# attack: tempfile.mkstemp(dir=outside)
# profile: basic filesystem
import tempfile
print(tempfile.mkstemp(dir="@OUTSIDE_DIR@"))
