# category: resources
# attack: fill the workspace tmpfs (memory the AS limit does not see), then allocate up to the limit: together past the memory limit
# profile: basic filesystem
# memory: 160m
# timeout: 20
import pathlib

MiB = 1 << 20
LIMIT = 160 * MiB
# The limit is on top of the interpreter as it was before the request: a
# warmed-up spare has a few MiB of freed arenas the program may reuse.
SLACK = 8 * MiB


def leak(what):
    print("@LEAK@", what)


written = 0
try:
    for i in range(64):
        with pathlib.Path("fill%d" % i).open("wb") as f:
            for _ in range(8):
                f.write(b"\1" * MiB)
                written += MiB
except OSError as e:
    print("workspace full:", e.strerror)
held = []
try:
    while True:
        held.append(b"\1" * MiB)  # touched: resident, not just mapped
except MemoryError:
    pass
total = written + len(held) * MiB
print("workspace %d MiB + allocated %d MiB = %d MiB (limit %d MiB)"
      % (written // MiB, len(held), total // MiB, LIMIT // MiB))
del held
if total > LIMIT + SLACK:
    leak("tmpfs and heap together past the memory limit")
