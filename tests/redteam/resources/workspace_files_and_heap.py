# category: resources
# attack: hold files and memory at once past the memory limit: fill the workspace (output/ too), then allocate; allocate first, then fill the workspace
# profile: basic filesystem
# memory: 100m
# timeout: 30
# verdict: ok
# never: @OVER-LIMIT@
import pathlib

MiB = 1 << 20
LIMIT = 100 * MiB
CHUNK = b"\1" * MiB  # held all along: counted as memory


def fill(tag):
    """Write 1 MiB at a time, half the files in output/, until the
    workspace refuses; the bytes written."""
    written = 0
    try:
        for i in range(400):
            name = ("output/%s%d" if i % 2 else "%s%d") % (tag, i)
            with pathlib.Path(name).open("wb", buffering=0) as f:
                for _ in range(4):
                    n = f.write(CHUNK)
                    written += n
                    if n < MiB:
                        raise OSError(28, "short write")
    except OSError as e:
        print("workspace full:", e.strerror)
    return written


def grab(held):
    """Allocate 1 MiB at a time (each touched) until MemoryError."""
    try:
        while True:
            held.append(b"\1" * MiB)
    except MemoryError:
        pass


def clean():
    for d in (pathlib.Path("output"), pathlib.Path(".")):
        for p in list(d.iterdir()):
            if p.is_file():
                p.unlink()


def check(order, files, held):
    heap = len(CHUNK) + sum(len(b) for b in held)
    total = files + heap
    print("%s: files %d MiB + memory %d MiB = %d MiB (limit %d MiB)"
          % (order, files // MiB, heap // MiB, total // MiB, LIMIT // MiB))
    if total > LIMIT:
        print("@OVER" + "-LIMIT@", order)


files = fill("a")
held = []
grab(held)
check("files first", files, held)
del held
clean()

held = []
grab(held)
del held[-2:]  # room for the file operations below
files = fill("b")
check("memory first", files, held)
del held
clean()
