# category: builtins
# attack: functools.singledispatch's register() takes the class from a string annotation, which typing.get_type_hints evaluates with eval() in a library frame: attribute reads the guard never sees (a module view's real module) and calls of the program's choosing
# profile: basic
# run-layer: guard
# verdict: error rejected
# never: INJECTED
import functools
import json

box = []


@functools.singledispatch
def f(x):
    return "base"


@f.register
def _(x: "box.append(json._ModuleView__m) or print('IN' + 'JECTED') or int"):
    return "int"


print(f(1), box)
