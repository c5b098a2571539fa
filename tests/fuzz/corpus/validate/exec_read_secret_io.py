# expect: error
# args: --profile filesystem
# blocked: audit
import io
print(io.open("@SECRET_FILE@").read())
