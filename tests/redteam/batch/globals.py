# attack: leave globals, a function and a class of one test for the next tests to find
k = int(input())
seen = []
for name in ("planted", "helper", "Kept"):
    try:
        eval_me = {"planted": lambda: planted, "helper": lambda: helper,
                   "Kept": lambda: Kept}[name]
        eval_me()
        seen.append(name)
    except NameError:
        pass
print("LEAK: " + ", ".join(seen) if seen else "clean")
planted = k


def helper():
    return k


class Kept:
    count = k
