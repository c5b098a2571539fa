# category: filesystem
# attack: io.FileIO on the secret
# profile: basic filesystem
import io
print(io.FileIO("@SECRET_FILE@").read())
