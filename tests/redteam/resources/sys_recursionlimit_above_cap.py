# category: resources
# attack: raise the recursion limit past the facade's cap through the jobe profile's sys.setrecursionlimit (a huge int, an int subclass that lies in its comparisons, past 64 bits), then recurse a million frames deep to exhaust the C stack or the server
# profile: basic jobe
# memory: 512M
# stdout: limits 100000 100000 100000 recursion stopped at the cap
import sys


class Liar(int):
    def __lt__(self, other):
        return True

    def __gt__(self, other):
        return False

    def __le__(self, other):
        return True


seen = []
sys.setrecursionlimit(10 ** 9)
seen.append(sys.getrecursionlimit())
sys.setrecursionlimit(Liar(10 ** 12))
seen.append(sys.getrecursionlimit())
sys.setrecursionlimit(2 ** 70)
seen.append(sys.getrecursionlimit())
sys.setrecursionlimit(10 ** 9)


def down(n):
    return 0 if n == 0 else 1 + down(n - 1)


try:
    down(10 ** 6)
    print("limits", *seen, "recursed a million frames")
except RecursionError:
    print("limits", *seen, "recursion stopped at the cap")
