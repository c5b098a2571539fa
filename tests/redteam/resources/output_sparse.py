# category: resources
# attack: output sparse
# profile: filesystem
# verdict: ok rejected
# files: sparse.bin=refused small.txt=text/plain
import io
with io.open("output/sparse.bin", "wb") as f:
    f.seek(10_000_000)
    f.write(b"x")
with io.open("output/small.txt", "w") as f:
    f.write("fine")
