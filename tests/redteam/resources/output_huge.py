# category: resources
# attack: A file past RLIMIT_FSIZE: the write is stopped, nothing is sent
# profile: filesystem
# verdict: killed error rejected
# files: huge.bin=refused
# A file past RLIMIT_FSIZE: the write is stopped, nothing is sent.
import io
with io.open("output/huge.bin", "wb") as f:
    block = b"\0" * (1 << 20)
    for _ in range(64):
        f.write(block)
