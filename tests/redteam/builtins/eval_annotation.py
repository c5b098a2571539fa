# category: builtins
# attack: eval annotation
# profile: basic
# verdict: error rejected
# run-layer: guard
import functools
@functools.singledispatch
def f(x):
    pass
@f.register
def _(x: "().__class__.__base__.__subclasses__()"):
    pass
