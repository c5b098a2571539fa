# category: disclosure
# attack: reach the real sys module through another allowed module's attribute (dataclasses.sys, typing.sys, enum.sys...) under the jobe profile, where sys itself is a facade
# profile: basic jobe
import dataclasses
import enum
import typing
import functools
import collections

for mod in (dataclasses, enum, typing, functools, collections):
    try:
        s = mod.sys
    except AttributeError:
        continue
    for name in ("modules", "path", "_getframe", "settrace"):
        try:
            getattr(s, name)
            print("@LEAK@", mod, name)
        except AttributeError:
            pass
