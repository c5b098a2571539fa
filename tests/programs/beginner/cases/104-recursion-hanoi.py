moves = []


def hanoi(n, source, target, spare):
    if n == 0:
        return
    hanoi(n - 1, source, spare, target)
    moves.append((n, source, target))
    hanoi(n - 1, spare, target, source)


hanoi(3, "A", "C", "B")
for disk, a, b in moves:
    print(f"move disk {disk} from {a} to {b}")
print(len(moves), "moves")
