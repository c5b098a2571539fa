# category: filesystem
# attack: with io.open("@OUTSIDE@", "w") as f: / f.write("pwned")
# profile: filesystem
# verdict: error rejected
import io
with io.open("@OUTSIDE@", "w") as f:
    f.write("pwned")
