from functools import lru_cache


@lru_cache(maxsize=None)
def ways(n):
    if n < 0:
        return 0
    if n == 0:
        return 1
    return ways(n - 1) + ways(n - 2) + ways(n - 3)


for steps in [1, 2, 3, 4, 10, 30]:
    print(f"{steps} steps: {ways(steps)} ways")
