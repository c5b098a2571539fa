# category: processes
# attack: uuid.getnode() falls back to running ifconfig/ip/arp in a subprocess
# profile: basic
import uuid
print(uuid.getnode())
