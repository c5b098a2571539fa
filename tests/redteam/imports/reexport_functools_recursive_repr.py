# category: imports
# attack: functools' re-exported modules (functools.abc, functools.sys)
# profile: basic
import functools
for n in dir(functools):
    print(n, getattr(functools, n, None))
