# category: resources
# attack: unbounded recursion
# profile: basic
def f(n):
    return f(n + 1) + 1
f(0)
