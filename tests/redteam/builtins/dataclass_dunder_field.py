# category: builtins
# attack: a forged __dataclass_fields__ holding a real dataclass field renamed to a dunder, so dataclasses.asdict reads __init__ (and through it the class's internals) for the program
# profile: basic
# run-layer: guard
import abc, dataclasses
f = dataclasses.fields(dataclasses.make_dataclass("Q", ["x"]))[0]
f.name = "__init__"
X = abc.ABCMeta("X", (), {"__dataclass_fields__": {"__init__": f}})
print(dataclasses.asdict(X()))
