# parity: With and withitem, including a tuple target, are allowed (RestrictedPython's node-type policy and rewrites)
# restricted: accept
# default: accept
from contextlib import nullcontext

with nullcontext((1, 2)) as (a, b):
    c = a + b
