# category: frames
# attack: from the functions and classes the guard defines (getattr, type, the dataclasses, functools, operator, collections and enum replacements, the module view's class) walk to their module: __globals__ and __builtins__ (the guard's own __import__), then __loader__, __spec__ and the module's names, and __spec__, __loader__, __closure__, __wrapped__, __self__ of each
# profile: basic
# verdict: ok rejected
# stdout: stopped 264 of 264
import collections
import dataclasses
import enum
import functools
import json
import operator

targets = [getattr, hasattr, setattr, delattr, type, type(json),
           dataclasses.dataclass, dataclasses.make_dataclass,
           dataclasses.fields, dataclasses.replace, functools.wraps,
           functools.update_wrapper, functools.singledispatch,
           operator.attrgetter, operator.methodcaller,
           collections.namedtuple, enum.global_enum,
           operator.attrgetter("real"), operator.methodcaller("real"),
           functools.wraps(print), dataclasses.dataclass(), json]
walks = [
    ("__globals__",), ("__globals__", "__loader__"),
    ("__globals__", "__spec__"), ("__globals__", "__builtins__"),
    ("__builtins__",), ("__builtins__", "__import__"),
    ("__spec__",), ("__loader__",), ("__closure__",), ("__wrapped__",),
    ("__wrapped__", "__globals__"),
    ("__self__",),
]
stopped = tried = 0
for t in targets:
    for walk in walks:
        tried += 1
        obj = t
        try:
            for name in walk:
                obj = getattr(obj, name)
        except AttributeError:
            stopped += 1
            continue
        print("@LEAK@", walk, repr(obj)[:200])
print("stopped", stopped, "of", tried)
