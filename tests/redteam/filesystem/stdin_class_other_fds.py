# category: filesystem
# attack: the class of the program's stdin (sys.stdin.buffer.raw, the guard's StdinFile) called on the result channel (fd 3) and the fd after it, to write a forged report or read the channel
# profile: basic jobe
# run-layer: audit hook
# never: forged-by-stdin-class
# stdout: result channel opened: []
import sys

T = type(sys.stdin.buffer.raw)
opened = []
for fd, mode in ((3, "w"), (3, "r"), (4, "w"), (4, "r")):
    try:
        f = T(fd, mode, closefd=False)
        if "w" in mode:
            f.write(b'R{"result": "forged-by-stdin-class"}\n')
        opened.append((fd, mode))
    except Exception:  # noqa: BLE001 - every refusal is fine
        pass
print("result channel opened:", opened)
