# parity: f(*a) and f(**k) are allowed (rewritten to _apply_) (RestrictedPython's rewrites)
# restricted: accept
# default: accept
args = [1, 2]
kw = {"sep": ","}
print(*args, **kw)
