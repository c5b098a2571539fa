# category: filesystem
# attack: print(io.open("@SECRET_FILE@").read())
# profile: filesystem
# verdict: error rejected
# blocked: audit
import io
print(io.open("@SECRET_FILE@").read())
