# category: imports
# attack: uuid.os to reach os
# profile: basic
import uuid
print(uuid.os.popen("cat @SECRET_FILE@").read())
