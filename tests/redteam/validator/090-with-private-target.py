# attack: with-statement target with a private name
from contextlib import nullcontext

with nullcontext(1) as _v:
    print(_v)
