rows = 5
for r in range(1, rows + 1):
    left = "".join(str(k) for k in range(1, r + 1))
    right = left[-2::-1]
    print((left + right).center(2 * rows - 1))
