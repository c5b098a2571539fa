def area(shape):
    match shape:
        case {"type": "square", "side": s}:
            return s * s
        case {"type": "rect", "w": w, "h": h}:
            return w * h
        case (a, b):
            return a * b
        case _:
            return 0


items = [{"type": "square", "side": 4}, {"type": "rect", "w": 2, "h": 5}, (3, 3), "?"]
for it in items:
    print(it, "->", area(it))
