# category: disclosure
# attack: gc.get_referrers and gc.get_referents of a function the guard defines, to find its module's namespace, the guard's own builtins and the loader's table of modules
# profile: basic
# verdict: error rejected
import gc
for r in gc.get_referrers(getattr) + gc.get_referents(getattr):
    if isinstance(r, dict):
        print("@LEAK@", sorted(r)[:20])
