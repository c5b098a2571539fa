# category: processes
# attack: os.kill the test's victim process via the raw os
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "os", "a": box,
    "__annotations__": {"a,self.a.append(kill)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
box[0](@TESTPID@, 9)
