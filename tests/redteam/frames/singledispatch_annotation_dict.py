# category: frames
# attack: a string annotation evaluated by functools.singledispatch (typing's ForwardRef eval): type.__dict__['__subclasses__'] without the names a breakout uses
# profile: basic
# run-layer: guard
import functools
@functools.singledispatch
def f(x):
    pass
@f.register
def _(x: "object.__class__.__dict__['__subclasses__'](object)"):
    pass
