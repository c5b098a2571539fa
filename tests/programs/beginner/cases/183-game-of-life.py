def step(cells):
    new = set()
    candidates = cells | {(r + dr, c + dc) for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    for r, c in candidates:
        n = sum((r + dr, c + dc) in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
        if n == 3 or (n == 2 and (r, c) in cells):
            new.add((r, c))
    return new


def show(cells):
    for r in range(5):
        print("".join("#" if (r, c) in cells else "." for c in range(5)))
    print()


blinker = {(2, 1), (2, 2), (2, 3)}
for gen in range(3):
    show(blinker)
    blinker = step(blinker)
