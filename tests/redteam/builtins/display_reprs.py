# category: builtins
# attack: display() as a way past the attribute guard: a library object's private _repr_png_ and _repr_markdown_ (numpy, pandas, a module view, the sys facade), a program's _repr_png_ returning forged bytes, a str subclass or a huge PNG, display's own globals and module
# profile: basic data_science
import sys
import numpy as np
import pandas as pd

real = []


def grab(f):
    try:
        v = f()
    except Exception:  # noqa: BLE001 - each path is tried
        return
    real.append(v)


class Forged:
    def _repr_png_(self):
        return b"\x89PNG not an image"


class Huge:
    def _repr_png_(self):
        return b"\x89PNG" + b"\0" * (64 << 20)


class Sneaky(str):
    pass


class Text:
    def _repr_markdown_(self):
        return Sneaky("@SECRET_FILE@")


display(np.arange(3), pd.Series([1, 2]), pd, sys, display)
display(Forged(), Huge(), Text())
grab(lambda: display.__globals__)
grab(lambda: display.__module__)
for v in real:
    print("@LEAK@", repr(v)[:200])
