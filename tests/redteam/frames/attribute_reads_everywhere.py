# category: frames
# attack: a library object's private attribute (refused by the guard, no audit event) read from every place an expression can stand (decorator, default, annotation, f-string spec, class base, slice, comprehension, walrus, with, assert, the last line): the server compiles small programs in C, and each read must go through the guard there as in the guard's own rewrite
# profile: basic
# verdict: error rejected
import random

r = random.Random()
got = []


def grab(f):
    try:
        v = f()
    except Exception:  # noqa: BLE001 - each place is tried
        return
    got.append(v)


def deco(f):
    return f


grab(lambda: r._randbelow)
grab(lambda: (lambda a=r._randbelow: a)())
grab(lambda: [x for x in [r] if x._randbelow][0]._randbelow)
grab(lambda: f"{0:{r._randbelow}}")
grab(lambda: [r._randbelow][0:1])
grab(lambda: (h := r)._randbelow)
grab(lambda: {k: k._randbelow for k in [r]})
grab(lambda: max([r], key=lambda k: k._randbelow(2)))
try:
    @deco
    def with_default(a=r._randbelow):
        return a
    got.append(with_default())
except Exception:  # noqa: BLE001
    pass
try:
    x: r._randbelow = 1
    got.append("an annotation read it: _randbelow")
except Exception:  # noqa: BLE001
    pass
try:
    class K(r._randbelow):
        pass
except TypeError:
    got.append("a base read it: _randbelow")
except Exception:  # noqa: BLE001
    pass
try:
    assert False, r._randbelow
except AssertionError as e:
    got.append(e.args)
except Exception:  # noqa: BLE001
    pass
try:
    with r._randbelow:
        pass
except AttributeError as e:
    if "__enter__" in str(e):
        got.append("with read it: _randbelow")
except Exception:  # noqa: BLE001
    pass
for v in got:
    if "_randbelow" in repr(v):
        print("@LEAK@", repr(v)[:200])
r._randbelow
