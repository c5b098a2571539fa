# category: resources
# attack: raise the recursion limit as far as the sys facade lets a program (setrecursionlimit, its cap, a float, a huge int, negative) and recurse until the C stack runs out
# profile: basic
# verdict: error memory_limit killed rejected timeout
import sys

# A timeout contains it too: a sanitized build on a busy host recurses
# slower, and the time limit may come before the memory limit.

for n in (10 ** 9, 2 ** 31 - 1, 2 ** 63, 10 ** 6, 100000, 1.0e9, -1, 0):
    try:
        sys.setrecursionlimit(n)
    except Exception:  # noqa: BLE001 - every value is tried
        pass


def f(n):
    return f(n + 1) + 1


def g(d):
    return {"k": g(d)} if d else {}


print(sys.getrecursionlimit())
try:
    f(0)
except RecursionError:
    pass
print(repr(g(10 ** 6))[:10])
