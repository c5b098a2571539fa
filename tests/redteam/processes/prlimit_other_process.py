# category: processes
# attack: resource.prlimit on the test's victim: read another process's limits (seccomp: pid 0 only)
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "resource", "a": box,
    "__annotations__": {"a,self.a.append(prlimit),self.a.append(RLIMIT_NOFILE)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
print(box[0](@TESTPID@, box[1]))
print("@LEAK@", "another process's limits")
