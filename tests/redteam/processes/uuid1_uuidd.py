# category: processes
# attack: uuid.uuid1 makes libuuid talk to uuidd or fork
# profile: basic
import uuid
print(uuid.uuid1())
