# category: resources
# attack: def f(n): / return f(n + 1) / f(0)
# profile: basic
# verdict: error rejected
def f(n):
    return f(n + 1)
f(0)
