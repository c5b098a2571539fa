# category: builtins
# attack: a forged __dataclass_fields__ with dunder field names, so dataclasses.asdict reads __class__ and __init__ for the program
# profile: basic
# run-layer: guard
import abc, dataclasses
f = dataclasses.field()
f.name = "__init__"
X = abc.ABCMeta("X", (), {"__dataclass_fields__": {"__init__": f}})
print(dataclasses.asdict(X()))
