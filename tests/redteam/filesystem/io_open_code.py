# category: filesystem
# attack: io.open_code on the secret
# profile: basic filesystem
import io
print(io.open_code("@SECRET_FILE@").read())
