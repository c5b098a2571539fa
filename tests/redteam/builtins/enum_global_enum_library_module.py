# category: builtins
# attack: enum.global_enum on an Enum whose module is dataclasses: its members (one named _create_, callable through a mixin) go into dataclasses' namespace, and the next dataclass hands the program the globals of the types module, real builtins included
# profile: basic
# run-layer: guard
# verdict: error rejected
# never: INJECTED
import dataclasses, enum

got = []


class M:
    def __call__(self, *args, **kwargs):
        got.append(kwargs.get("globals"))
        raise ValueError("stop")


E = enum.Enum("E", [("_create_fn", 1)], module="dataclasses", type=M)
enum.global_enum(E)
try:
    dataclasses.make_dataclass("Q", ["x"])
except ValueError:
    pass
b = got[0]["__builtins__"]
b["print"]("IN" + "JECTED", b["open"]("@SECRET_FILE@").read())
