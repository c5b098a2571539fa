# category: disclosure
# attack: readlink of /proc/self/exe and of each /proc/self/task/N/exe: the host path of the pyward binary
# profile: basic filesystem
# timeout: 20
import pathlib


def leak(what):
    print("@LEAK@", what)


links = ["/proc/self/exe", "/proc/thread-self/exe"]
links += ["/proc/self/task/%d/exe" % n for n in range(1, 1 << 16)]
seen = []
for link in links:
    try:
        seen.append(str(pathlib.Path(link).readlink()))
    except OSError:
        pass
print(len(seen), "links read:", seen[:3])
if any("@PYWARD_EXE@" in s or s.endswith("/pyward") for s in seen):
    leak("the binary's host path")
